# coinop shell completion, generated from the command tree (coinop completion SHELL). Do not edit.
_coinop() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" path="" w i next
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="${COMP_WORDS[i]}"
    [[ $w == -* ]] && continue
    next="${path:+$path }$w"
    case "$next" in "login"|"logout"|"auth"|"auth status"|"profile"|"profile list"|"profile use"|"profile show"|"withdraw"|"withdraw batch"|"fee"|"fee quote"|"addresses"|"addresses list"|"addresses create"|"transfers"|"transfers list"|"transfers get"|"transfers watch"|"sandbox"|"sandbox deposit"|"prices"|"api"|"stream"|"stream book"|"stream top"|"stream trades"|"stream heartbeat"|"local"|"local start"|"completion") path="$next" ;; esac
  done
  case "$prev" in
    --output) COMPREPLY=($(compgen -W "table json ndjson csv" -- "$cur")); return ;;
    -o) COMPREPLY=($(compgen -W "table json ndjson csv" -- "$cur")); return ;;
    --env) COMPREPLY=($(compgen -W "local sandbox production custom" -- "$cur")); return ;;
    --asset) COMPREPLY=($(compgen -W "BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD" -- "$cur")); return ;;
    --network) COMPREPLY=($(compgen -W "BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER" -- "$cur")); return ;;
    --format) COMPREPLY=($(compgen -W "csv jsonl json" -- "$cur")); return ;;
    --order) COMPREPLY=($(compgen -W "DESC ASC" -- "$cur")); return ;;
    --order-by) COMPREPLY=($(compgen -W "CREATED_AT UPDATED_AT" -- "$cur")); return ;;
    --conversion) COMPREPLY=($(compgen -W "NO_CONVERSION USD" -- "$cur")); return ;;
    --type) COMPREPLY=($(compgen -W "INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PLATFORM_TRANSFER_DEBIT PLATFORM_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT" -- "$cur")); return ;;
    --status) COMPREPLY=($(compgen -W "PENDING COMPLETED FAILED" -- "$cur")); return ;;
    --increment) COMPREPLY=($(compgen -W "ONE_MINUTE FIVE_MINUTES FIFTEEN_MINUTES THIRTY_MINUTES ONE_HOUR TWO_HOURS TWELVE_HOURS ONE_DAY ONE_WEEK TWO_WEEKS FOUR_WEEKS" -- "$cur")); return ;;
    --journal|--file|--input|--db) COMPREPLY=(); return ;;
  esac
  local words
  if [[ $cur == -* ]]; then
    case "$path" in
      "") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "login") words="--version -V --profile --output -o --json --no-input --no-color --debug --env --client-id --client-secret-stdin --scopes --name --profile-id --base-url --auth-url --ws-url --help" ;;
      "logout") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "auth") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "auth status") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "profile") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "profile list") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "profile use") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "profile show") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "withdraw") words="--version -V --profile --output -o --json --no-input --no-color --debug --asset --network --address --amount --total --fee-id --quote --ref-id --profile-id --identity-id --account-id --balance-asset --memo --meta --beneficiary --dry-run --yes -y --wait --wait-timeout --help" ;;
      "withdraw batch") words="--version -V --profile --output -o --json --no-input --no-color --debug --format --profile-id --dry-run --yes -y --resume --retry-failed --skip-invalid --wait --wait-timeout --concurrency --rate --journal --new-batch --help" ;;
      "fee") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "fee quote") words="--version -V --profile --output -o --json --no-input --no-color --debug --asset --network --address --amount --total --help" ;;
      "addresses") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "addresses list") words="--version -V --profile --output -o --json --no-input --no-color --debug --profile-id --identity-id --account-id --id --ref-id --network --created-before --created-until --created-at --created-from --created-after --limit --order --order-by --cursor --all --help" ;;
      "addresses create") words="--version -V --profile --output -o --json --no-input --no-color --debug --network --profile-id --identity-id --account-id --ref-id --conversion --meta --help" ;;
      "transfers") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "transfers list") words="--version -V --profile --output -o --json --no-input --no-color --debug --id --ref-id --profile-id --type --status --tx-hash --group-id --created-before --created-until --created-at --created-from --created-after --updated-before --updated-until --updated-at --updated-from --updated-after --limit --order --order-by --cursor --all --help" ;;
      "transfers get") words="--version -V --profile --output -o --json --no-input --no-color --debug --ref-id --help" ;;
      "transfers watch") words="--version -V --profile --output -o --json --no-input --no-color --debug --timeout --help" ;;
      "sandbox") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "sandbox deposit") words="--version -V --profile --output -o --json --no-input --no-color --debug --amount --asset --memo-id --file --account-number --routing-number --routing-type --bank-name --bank-country --owner-country --owner-city --owner-address --institution --help" ;;
      "prices") words="--version -V --profile --output -o --json --no-input --no-color --debug --increment --max-points --from --to --limit --offset --all --help" ;;
      "api") words="--version -V --profile --output -o --json --no-input --no-color --debug --field -f --input --paginate --include -i --help" ;;
      "stream") words="--version -V --profile --output -o --json --no-input --no-color --debug --channel -c --book --interval --depth --duration --count --help" ;;
      "stream book") words="--version -V --profile --output -o --json --no-input --no-color --debug --channel -c --book --interval --depth --duration --count --help" ;;
      "stream top") words="--version -V --profile --output -o --json --no-input --no-color --debug --channel -c --book --interval --depth --duration --count --help" ;;
      "stream trades") words="--version -V --profile --output -o --json --no-input --no-color --debug --channel -c --book --interval --depth --duration --count --help" ;;
      "stream heartbeat") words="--version -V --profile --output -o --json --no-input --no-color --debug --channel -c --book --interval --depth --duration --count --help" ;;
      "local") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "local start") words="--version -V --profile --output -o --json --no-input --no-color --debug --port --host --db --memory --seed --help" ;;
      "completion") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
    esac
  else
    case "$path" in
      "") words="login logout auth profile withdraw fee addresses transfers sandbox prices api stream local completion" ;;
      "login") words="" ;;
      "logout") words="" ;;
      "auth") words="status" ;;
      "auth status") words="" ;;
      "profile") words="list use show" ;;
      "profile list") words="" ;;
      "profile use") words="" ;;
      "profile show") words="" ;;
      "withdraw") words="batch" ;;
      "withdraw batch") words="" ;;
      "fee") words="quote" ;;
      "fee quote") words="" ;;
      "addresses") words="list create" ;;
      "addresses list") words="" ;;
      "addresses create") words="" ;;
      "transfers") words="list get watch" ;;
      "transfers list") words="" ;;
      "transfers get") words="" ;;
      "transfers watch") words="" ;;
      "sandbox") words="deposit" ;;
      "sandbox deposit") words="" ;;
      "prices") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP" ;;
      "api") words="GET POST PUT PATCH DELETE" ;;
      "stream") words="book top trades heartbeat" ;;
      "stream book") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP" ;;
      "stream top") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP" ;;
      "stream trades") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP" ;;
      "stream heartbeat") words="" ;;
      "local") words="start" ;;
      "local start") words="" ;;
      "completion") words="bash zsh fish" ;;
    esac
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _coinop coinop
