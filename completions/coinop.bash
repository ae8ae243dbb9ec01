# coinop shell completion, generated from the command tree (coinop completion SHELL). Do not edit.
_coinop() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" path="" w i next
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="${COMP_WORDS[i]}"
    [[ $w == -* ]] && continue
    next="${path:+$path }$w"
    case "$next" in "login"|"logout"|"auth"|"auth status"|"profile"|"profile list"|"profile use"|"profile show"|"profiles"|"profiles list"|"profiles get"|"profiles create"|"balances"|"withdraw"|"withdraw batch"|"fee"|"fee quote"|"addresses"|"addresses list"|"addresses create"|"transfers"|"transfers list"|"transfers get"|"transfers watch"|"transfer"|"transfer internal"|"events"|"events list"|"events get"|"events watch"|"events listen"|"destinations"|"destinations list"|"destinations put"|"limits"|"deposit-instructions"|"deposit-instructions create"|"deposit-instructions list"|"deposit-instructions get"|"sandbox"|"sandbox deposit"|"prices"|"markets"|"ticker"|"book"|"trades"|"api"|"stream"|"stream book"|"stream top"|"stream trades"|"stream heartbeat"|"local"|"local start"|"local deposit"|"completion") path="$next" ;; esac
  done
  case "$path|$prev" in
    *"|--output") COMPREPLY=($(compgen -W "table json ndjson csv" -- "$cur")); return ;;
    *"|-o") COMPREPLY=($(compgen -W "table json ndjson csv" -- "$cur")); return ;;
    *"|--env") COMPREPLY=($(compgen -W "local sandbox production custom" -- "$cur")); return ;;
    *"|--order") COMPREPLY=($(compgen -W "DESC ASC" -- "$cur")); return ;;
    *"|--asset") COMPREPLY=($(compgen -W "BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB" -- "$cur")); return ;;
    "withdraw|--network") COMPREPLY=($(compgen -W "BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB" -- "$cur")); return ;;
    "fee quote|--network") COMPREPLY=($(compgen -W "BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB" -- "$cur")); return ;;
    "addresses list|--network") COMPREPLY=($(compgen -W "BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB" -- "$cur")); return ;;
    "addresses create|--network") COMPREPLY=($(compgen -W "BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB" -- "$cur")); return ;;
    "destinations list|--network") COMPREPLY=($(compgen -W "BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB" -- "$cur")); return ;;
    "destinations put|--network") COMPREPLY=($(compgen -W "BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB" -- "$cur")); return ;;
    "deposit-instructions create|--network") COMPREPLY=($(compgen -W "WIRE DBS_ACT CUBIX SCB RTP" -- "$cur")); return ;;
    *"|--format") COMPREPLY=($(compgen -W "csv jsonl json" -- "$cur")); return ;;
    "addresses list|--order-by") COMPREPLY=($(compgen -W "CREATED_AT" -- "$cur")); return ;;
    "transfers list|--order-by") COMPREPLY=($(compgen -W "CREATED_AT UPDATED_AT" -- "$cur")); return ;;
    "destinations list|--order-by") COMPREPLY=($(compgen -W "CREATED_AT" -- "$cur")); return ;;
    *"|--conversion") COMPREPLY=($(compgen -W "NO_CONVERSION USD" -- "$cur")); return ;;
    "transfers list|--type") COMPREPLY=($(compgen -W "INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PLATFORM_TRANSFER_DEBIT PLATFORM_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT PAXOS_TRANSFER_DEBIT PAXOS_TRANSFER_CREDIT" -- "$cur")); return ;;
    "events list|--type") COMPREPLY=($(compgen -W "INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PLATFORM_TRANSFER_DEBIT PLATFORM_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT PAXOS_TRANSFER_DEBIT PAXOS_TRANSFER_CREDIT" -- "$cur")); return ;;
    "events watch|--type") COMPREPLY=($(compgen -W "INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PLATFORM_TRANSFER_DEBIT PLATFORM_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT PAXOS_TRANSFER_DEBIT PAXOS_TRANSFER_CREDIT" -- "$cur")); return ;;
    "events listen|--type") COMPREPLY=($(compgen -W "INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PLATFORM_TRANSFER_DEBIT PLATFORM_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT PAXOS_TRANSFER_DEBIT PAXOS_TRANSFER_CREDIT" -- "$cur")); return ;;
    "limits|--type") COMPREPLY=($(compgen -W "INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PAXOS_TRANSFER_DEBIT PAXOS_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT" -- "$cur")); return ;;
    *"|--status") COMPREPLY=($(compgen -W "PENDING COMPLETED FAILED" -- "$cur")); return ;;
    *"|--secondary-status") COMPREPLY=($(compgen -W "TRAVEL_RULE_INFO_REQUESTED TRAVEL_RULE_REJECTED CUSTOMER_REJECTED PENDING_CUSTOMER_APPROVAL" -- "$cur")); return ;;
    *"|--routing-type") COMPREPLY=($(compgen -W "ABA SWIFT" -- "$cur")); return ;;
    *"|--increment") COMPREPLY=($(compgen -W "ONE_MINUTE FIVE_MINUTES FIFTEEN_MINUTES THIRTY_MINUTES ONE_HOUR TWO_HOURS TWELVE_HOURS ONE_DAY ONE_WEEK TWO_WEEKS FOUR_WEEKS" -- "$cur")); return ;;
    *"|--journal"|*"|--file"|*"|--input"|*"|--db") COMPREPLY=(); return ;;
  esac
  local words
  if [[ $cur == -* ]]; then
    case "$path" in
      "") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "login") words="--version -V --profile --output -o --json --no-input --no-color --debug --env --client-id --client-secret-stdin --scopes --name --profile-id --base-url --auth-url --ws-url --activate --help" ;;
      "logout") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "auth") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "auth status") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "profile") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "profile list") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "profile use") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "profile show") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "profiles") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "profiles list") words="--version -V --profile --output -o --json --no-input --no-color --debug --id --nickname --created-before --created-until --created-at --created-from --created-after --limit --order --cursor --all --help" ;;
      "profiles get") words="--version -V --profile --output -o --json --no-input --no-color --debug --include-deactivated --help" ;;
      "profiles create") words="--version -V --profile --output -o --json --no-input --no-color --debug --nickname --description --help" ;;
      "balances") words="--version -V --profile --output -o --json --no-input --no-color --debug --profile-id --all-profiles --include-zero --help" ;;
      "withdraw") words="--version -V --profile --output -o --json --no-input --no-color --debug --asset --network --address --to --amount --total --fee-id --quote --ref-id --profile-id --identity-id --account-id --balance-asset --memo --meta --beneficiary --dry-run --yes -y --wait --wait-timeout --help" ;;
      "withdraw batch") words="--version -V --profile --output -o --json --no-input --no-color --debug --format --profile-id --dry-run --yes -y --resume --retry-failed --skip-invalid --wait --wait-timeout --concurrency --rate --journal --allow-repeat --allow-partial --help" ;;
      "fee") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "fee quote") words="--version -V --profile --output -o --json --no-input --no-color --debug --asset --network --address --amount --total --help" ;;
      "addresses") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "addresses list") words="--version -V --profile --output -o --json --no-input --no-color --debug --profile-id --identity-id --account-id --id --ref-id --network --created-before --created-until --created-at --created-from --created-after --limit --order --order-by --cursor --all --help" ;;
      "addresses create") words="--version -V --profile --output -o --json --no-input --no-color --debug --network --profile-id --identity-id --account-id --ref-id --conversion --meta --help" ;;
      "transfers") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "transfers list") words="--version -V --profile --output -o --json --no-input --no-color --debug --id --ref-id --profile-id --identity-id --account-id --type --status --secondary-status --tx-hash --group-id --created-before --created-until --created-at --created-from --created-after --updated-before --updated-until --updated-at --updated-from --updated-after --limit --order --order-by --cursor --all --help" ;;
      "transfers get") words="--version -V --profile --output -o --json --no-input --no-color --debug --ref-id --help" ;;
      "transfers watch") words="--version -V --profile --output -o --json --no-input --no-color --debug --timeout --help" ;;
      "transfer") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "transfer internal") words="--version -V --profile --output -o --json --no-input --no-color --debug --from-profile-id --to-profile-id --asset --amount --ref-id --meta --recipient-meta --dry-run --yes -y --wait --wait-timeout --help" ;;
      "events") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "events list") words="--version -V --profile --output -o --json --no-input --no-color --debug --type --created-before --created-until --created-at --created-from --created-after --limit --order --cursor --all --help" ;;
      "events get") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "events watch") words="--version -V --profile --output -o --json --no-input --no-color --debug --type --since --count --help" ;;
      "events listen") words="--version -V --profile --output -o --json --no-input --no-color --debug --forward-to --concurrency --timeout --print-secret --type --since --count --help" ;;
      "destinations") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "destinations list") words="--version -V --profile --output -o --json --no-input --no-color --debug --nickname --network --address --id --identity-id --bookmarked --not-bookmarked --created-before --created-until --created-at --created-from --created-after --limit --order --order-by --cursor --all --help" ;;
      "destinations put") words="--version -V --profile --output -o --json --no-input --no-color --debug --network --address --id --nickname --bookmark --no-bookmark --identity-id --travel-rule --help" ;;
      "limits") words="--version -V --profile --output -o --json --no-input --no-color --debug --type --help" ;;
      "deposit-instructions") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "deposit-instructions create") words="--version -V --profile --output -o --json --no-input --no-color --debug --network --routing-type --profile-id --identity-id --account-id --ref-id --meta --help" ;;
      "deposit-instructions list") words="--version -V --profile --output -o --json --no-input --no-color --debug --id --ref-id --created-before --created-until --created-at --created-from --created-after --limit --order --cursor --all --help" ;;
      "deposit-instructions get") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "sandbox") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "sandbox deposit") words="--version -V --profile --output -o --json --no-input --no-color --debug --amount --asset --memo-id --instructions --file --account-number --owner-country --owner-address --owner-address2 --owner-city --owner-province --owner-zip --routing-type --routing-number --bank-name --bank-country --bank-address --bank-address2 --bank-city --bank-province --bank-zip --institution --owner-first-name --owner-last-name --help" ;;
      "prices") words="--version -V --profile --output -o --json --no-input --no-color --debug --increment --max-points --from --to --limit --offset --all --help" ;;
      "markets") words="--version -V --profile --output -o --json --no-input --no-color --debug --refresh --help" ;;
      "ticker") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "book") words="--version -V --profile --output -o --json --no-input --no-color --debug --depth --help" ;;
      "trades") words="--version -V --profile --output -o --json --no-input --no-color --debug --limit --help" ;;
      "api") words="--version -V --profile --output -o --json --no-input --no-color --debug --field -f --input --paginate --include -i --help" ;;
      "stream") words="--version -V --profile --output -o --json --no-input --no-color --debug --channel -c --book --interval --depth --duration --count --help" ;;
      "stream book") words="--version -V --profile --output -o --json --no-input --no-color --debug --channel -c --book --interval --depth --duration --count --help" ;;
      "stream top") words="--version -V --profile --output -o --json --no-input --no-color --debug --channel -c --book --interval --depth --duration --count --help" ;;
      "stream trades") words="--version -V --profile --output -o --json --no-input --no-color --debug --channel -c --book --interval --depth --duration --count --help" ;;
      "stream heartbeat") words="--version -V --profile --output -o --json --no-input --no-color --debug --channel -c --book --interval --depth --duration --count --help" ;;
      "local") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
      "local start") words="--version -V --profile --output -o --json --no-input --no-color --debug --port --host --db --memory --seed --no-rate-limits --help" ;;
      "local deposit") words="--version -V --profile --output -o --json --no-input --no-color --debug --address --ref-id --amount --asset --help" ;;
      "completion") words="--version -V --profile --output -o --json --no-input --no-color --debug --help" ;;
    esac
  else
    case "$path" in
      "") words="login logout auth profile profiles balances withdraw fee addresses transfers transfer events destinations limits deposit-instructions sandbox prices markets ticker book trades api stream local completion" ;;
      "login") words="" ;;
      "logout") words="" ;;
      "auth") words="status" ;;
      "auth status") words="" ;;
      "profile") words="list use show" ;;
      "profile list") words="" ;;
      "profile use") words="" ;;
      "profile show") words="" ;;
      "profiles") words="list get create" ;;
      "profiles list") words="" ;;
      "profiles get") words="" ;;
      "profiles create") words="" ;;
      "balances") words="BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB USD EUR GBP BRL MXN" ;;
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
      "transfer") words="internal" ;;
      "transfer internal") words="" ;;
      "events") words="list get watch listen" ;;
      "events list") words="" ;;
      "events get") words="" ;;
      "events watch") words="" ;;
      "events listen") words="" ;;
      "destinations") words="list put" ;;
      "destinations list") words="" ;;
      "destinations put") words="" ;;
      "limits") words="" ;;
      "deposit-instructions") words="create list get" ;;
      "deposit-instructions create") words="" ;;
      "deposit-instructions list") words="" ;;
      "deposit-instructions get") words="" ;;
      "sandbox") words="deposit" ;;
      "sandbox deposit") words="" ;;
      "prices") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD" ;;
      "markets") words="" ;;
      "ticker") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD" ;;
      "book") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD" ;;
      "trades") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD" ;;
      "api") words="GET POST PUT PATCH DELETE" ;;
      "stream") words="book top trades heartbeat" ;;
      "stream book") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD" ;;
      "stream top") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD" ;;
      "stream trades") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD" ;;
      "stream heartbeat") words="" ;;
      "local") words="start deposit" ;;
      "local start") words="" ;;
      "local deposit") words="" ;;
      "completion") words="bash zsh fish" ;;
    esac
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _coinop coinop
