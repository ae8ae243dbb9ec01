# coinop shell completion, generated from the command tree (coinop completion SHELL). Do not edit.
# The networks of an asset (any case); every crypto network for anything else.
_coinop_networks() {
  case "${1^^}" in
    BTC) echo BITCOIN ;;
    ETH) echo ETHEREUM BASE ARBITRUM_ONE INK XLAYER ROBINHOOD ;;
    BCH) echo BITCOIN_CASH ;;
    LTC) echo LITECOIN ;;
    SOL) echo SOLANA ;;
    PAXG) echo ETHEREUM ;;
    LINK) echo ETHEREUM ;;
    AAVE) echo ETHEREUM ;;
    UNI) echo ETHEREUM ;;
    MATIC) echo POLYGON_POS ETHEREUM ;;
    USDP) echo ETHEREUM SOLANA ;;
    PYUSD) echo ETHEREUM SOLANA STELLAR ARBITRUM_ONE ;;
    PEPE) echo ETHEREUM ;;
    TRUMP) echo SOLANA ;;
    SHIB) echo ETHEREUM ;;
    ARB) echo ARBITRUM_ONE ETHEREUM ;;
    BONK) echo SOLANA ;;
    ENA) echo ETHEREUM ;;
    MNT) echo ETHEREUM ;;
    ONDO) echo ETHEREUM ;;
    PENGU) echo SOLANA ;;
    QNT) echo ETHEREUM ;;
    RENDER) echo SOLANA ;;
    SKY) echo ETHEREUM ;;
    WIF) echo SOLANA ;;
    WLD) echo ETHEREUM ;;
    DOGE) echo DOGECOIN ;;
    AVAX) echo AVALANCHE ;;
    SUI) echo SUI ;;
    POL) echo POLYGON_POS ETHEREUM ;;
    XLM) echo STELLAR ;;
    BNB) echo BNB ;;
    *) echo BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB ;;
  esac
}
_coinop() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmd="" asset="" ctx="" w i next
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="${COMP_WORDS[i]}"
    case "$w" in
      --context|--profile) ctx="${COMP_WORDS[i+1]}"; [[ $ctx == = ]] && ctx="${COMP_WORDS[i+2]}" ;;
      --context=*|--profile=*) ctx="${w#*=}" ;;
    esac
    if [[ $w == -* ]]; then
      case "$cmd|$w" in
        *"|--context"|*"|--profile"|*"|--output"|*"|-o"|*"|--env"|*"|--client-id"|*"|--scopes"|*"|--name"|*"|--profile-id"|*"|--base-url"|*"|--auth-url"|*"|--ws-url"|*"|--id"|*"|--nickname"|*"|--created-before"|*"|--created-until"|*"|--created-at"|*"|--created-from"|*"|--created-after"|*"|--limit"|*"|--order"|*"|--cursor"|*"|--columns"|*"|--description"|*"|--asset"|*"|--network"|*"|--address"|*"|--to"|*"|--amount"|*"|--total"|*"|--fee-id"|*"|--ref-id"|*"|--identity-id"|*"|--account-id"|*"|--balance-asset"|*"|--memo"|*"|--meta"|*"|--beneficiary"|*"|--beneficiary-first-name"|*"|--beneficiary-last-name"|*"|--beneficiary-institution"|*"|--wait-timeout"|*"|--save"|*"|--request"|*"|--approvals"|*"|--format"|*"|--concurrency"|*"|--rate"|*"|--journal"|*"|--fiat-account-id"|*"|--order-by"|*"|--conversion"|*"|--key-file"|*"|--status"|*"|--method"|*"|--signature"|*"|--type"|*"|--secondary-status"|*"|--tx-hash"|*"|--group-id"|*"|--destination"|*"|--metadata"|*"|--from"|*"|--updated-before"|*"|--updated-until"|*"|--updated-at"|*"|--updated-from"|*"|--updated-after"|*"|--timeout"|*"|--from-profile-id"|*"|--to-profile-id"|*"|--recipient-meta"|*"|--since"|*"|--count"|*"|--forward-to"|*"|--travel-rule"|*"|--custodian-type"|*"|--vasp-id"|*"|--vasp-name"|*"|--vasp-website"|*"|--transfer-purpose"|*"|--routing-type"|*"|--owner-name"|*"|--first-name"|*"|--last-name"|*"|--file"|*"|--account-number"|*"|--routing-number"|*"|--bank-name"|*"|--bank-country"|*"|--owner-country"|*"|--owner-address"|*"|--owner-city"|*"|--cubix-account-id"|*"|--wallet-address"|*"|--search"|*"|--originator-first-name"|*"|--originator-last-name"|*"|--originator-institution"|*"|--recipient-profile-id"|*"|--customer-id"|*"|--product"|*"|--memo-id"|*"|--instructions"|*"|--owner-address2"|*"|--owner-province"|*"|--owner-zip"|*"|--bank-address"|*"|--bank-address2"|*"|--bank-city"|*"|--bank-province"|*"|--bank-zip"|*"|--institution"|*"|--owner-first-name"|*"|--owner-last-name"|*"|--kind"|*"|--outcome"|*"|--head"|*"|--journals"|*"|--month"|*"|--out"|*"|--public-key"|*"|--increment"|*"|--max-points"|*"|--offset"|*"|--depth"|*"|--field"|*"|-f"|*"|--input"|*"|--channel"|*"|-c"|*"|--interval"|*"|--duration"|*"|--store"|*"|--upstream"|*"|--host"|*"|--port"|*"|--tls-cert"|*"|--tls-key"|*"|--approval-ttl"|*"|--role"|*"|--reason"|*"|--db"|*"|--seed")
          [[ $w == --asset ]] && asset="${COMP_WORDS[i+1]}"
          ((i++)) ;;
      esac
      continue
    fi
    next="${cmd:+$cmd }$w"
    case "$next" in "login"|"logout"|"auth"|"auth status"|"context"|"context list"|"context use"|"context show"|"context rename"|"context delete"|"context set-profile-id"|"config"|"config list"|"config get"|"config set"|"config unset"|"profiles"|"profiles list"|"profiles get"|"profiles create"|"balances"|"withdraw"|"withdraw batch"|"withdraw fiat"|"fee"|"fee quote"|"addresses"|"addresses list"|"addresses create"|"addresses verify"|"addresses verifications"|"addresses verifications list"|"addresses verifications get"|"addresses verifications submit"|"transfers"|"transfers list"|"transfers get"|"transfers watch"|"transfer"|"transfer internal"|"transfer paxos"|"events"|"events list"|"events get"|"events watch"|"events listen"|"destinations"|"destinations list"|"destinations put"|"limits"|"policy"|"policy show"|"policy check"|"policy init"|"approve"|"deposit-instructions"|"deposit-instructions create"|"deposit-instructions list"|"deposit-instructions get"|"fiat-accounts"|"fiat-accounts create"|"fiat-accounts list"|"fiat-accounts get"|"fiat-accounts update"|"fiat-accounts delete"|"vasps"|"vasps list"|"vasps get"|"deposits"|"deposits update"|"deposits reject"|"convert"|"conversions"|"conversions list"|"conversions get"|"conversions cancel"|"statements"|"statements list"|"statements payments"|"sandbox"|"sandbox deposit"|"audit"|"audit list"|"audit verify"|"audit export"|"audit path"|"reconcile"|"statement"|"close"|"close verify"|"prices"|"markets"|"ticker"|"book"|"trades"|"api"|"doctor"|"stream"|"stream book"|"stream top"|"stream trades"|"stream heartbeat"|"mcp"|"gateway"|"gateway init"|"gateway start"|"gateway operators"|"gateway operators add"|"gateway operators list"|"gateway operators disable"|"gateway operators enable"|"gateway policy"|"gateway policy show"|"gateway policy set"|"gateway policy history"|"approvals"|"approvals list"|"approvals show"|"approvals approve"|"approvals reject"|"local"|"local start"|"local deposit"|"completion") cmd="$next" ;; esac
  done
  local -a cx=(); [[ -n $ctx ]] && cx=(--context "$ctx")
  case "$cmd|$prev" in
    *"|--output") COMPREPLY=($(compgen -W "table json ndjson csv" -- "$cur")); return ;;
    *"|-o") COMPREPLY=($(compgen -W "table json ndjson csv" -- "$cur")); return ;;
    *"|--context") COMPREPLY=($(compgen -W "$(coinop __complete contexts "${cx[@]}" 2>/dev/null)" -- "$cur")); return ;;
    *"|--profile") COMPREPLY=($(compgen -W "$(coinop __complete contexts "${cx[@]}" 2>/dev/null)" -- "$cur")); return ;;
    *"|--env") COMPREPLY=($(compgen -W "local sandbox production custom" -- "$cur")); return ;;
    *"|--profile-id") COMPREPLY=($(compgen -W "$(coinop __complete service-profiles "${cx[@]}" 2>/dev/null)" -- "$cur")); return ;;
    *"|--order") COMPREPLY=($(compgen -W "DESC ASC" -- "$cur")); return ;;
    "withdraw|--asset"|"fee quote|--asset"|"transfers list|--asset"|"audit list|--asset"|"local deposit|--asset") COMPREPLY=($(compgen -W "BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB" -- "$cur")); return ;;
    "withdraw fiat|--asset"|"sandbox deposit|--asset") COMPREPLY=($(compgen -W "USD" -- "$cur")); return ;;
    "transfer internal|--asset"|"transfer paxos|--asset") COMPREPLY=($(compgen -W "BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB USD EUR GBP BRL MXN" -- "$cur")); return ;;
    "withdraw|--network"|"fee quote|--network"|"transfers list|--network") COMPREPLY=($(compgen -W "$(_coinop_networks "$asset")" -- "$cur")); return ;;
    "addresses list|--network"|"addresses create|--network"|"addresses verifications list|--network"|"destinations list|--network"|"destinations put|--network") COMPREPLY=($(compgen -W "BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB" -- "$cur")); return ;;
    "addresses verify|--network") COMPREPLY=($(compgen -W "ETHEREUM POLYGON_POS BASE ARBITRUM_ONE INK XLAYER AVALANCHE BNB ROBINHOOD SOLANA" -- "$cur")); return ;;
    "deposit-instructions create|--network") COMPREPLY=($(compgen -W "WIRE DBS_ACT CUBIX SCB RTP" -- "$cur")); return ;;
    "fiat-accounts create|--network") COMPREPLY=($(compgen -W "WIRE CBIT DBS_ACT CUBIX SCB RTP" -- "$cur")); return ;;
    "withdraw|--to") COMPREPLY=($(compgen -W "$(coinop __complete destinations "${cx[@]}" 2>/dev/null)" -- "$cur")); return ;;
    *"|--format") COMPREPLY=($(compgen -W "csv jsonl json" -- "$cur")); return ;;
    "addresses list|--order-by"|"addresses verifications list|--order-by"|"destinations list|--order-by") COMPREPLY=($(compgen -W "CREATED_AT" -- "$cur")); return ;;
    "transfers list|--order-by") COMPREPLY=($(compgen -W "CREATED_AT UPDATED_AT" -- "$cur")); return ;;
    *"|--conversion") COMPREPLY=($(compgen -W "NO_CONVERSION USD" -- "$cur")); return ;;
    "addresses verifications list|--status") COMPREPLY=($(compgen -W "PENDING APPROVED EXPIRED" -- "$cur")); return ;;
    "transfers list|--status") COMPREPLY=($(compgen -W "PENDING COMPLETED FAILED" -- "$cur")); return ;;
    "statements list|--status") COMPREPLY=($(compgen -W "STATEMENT_STATUS_UNSPECIFIED STATEMENT_STATUS_INITIATED STATEMENT_STATUS_GENERATED STATEMENT_STATUS_PAID" -- "$cur")); return ;;
    "statements payments|--status") COMPREPLY=($(compgen -W "PAYMENT_STATUS_PENDING PAYMENT_STATUS_COMPLETED PAYMENT_STATUS_FAILED" -- "$cur")); return ;;
    "approvals list|--status") COMPREPLY=($(compgen -W "pending sending sent failed rejected expired" -- "$cur")); return ;;
    *"|--method") COMPREPLY=($(compgen -W "SIGNATURE SMALL_DEPOSIT MANUAL" -- "$cur")); return ;;
    "transfers list|--type") COMPREPLY=($(compgen -W "INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PLATFORM_TRANSFER_DEBIT PLATFORM_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT PAXOS_TRANSFER_DEBIT PAXOS_TRANSFER_CREDIT" -- "$cur")); return ;;
    "events list|--type"|"events watch|--type"|"events listen|--type") COMPREPLY=($(compgen -W "transfer.crypto_withdrawal.pending transfer.crypto_withdrawal.completed transfer.crypto_withdrawal.failed transfer.crypto_deposit.pending transfer.crypto_deposit.completed transfer.wire_deposit.completed transfer.internal_transfer_debit.completed transfer.internal_transfer_credit.completed transfer.wire_withdrawal.pending transfer.wire_withdrawal.completed transfer.wire_withdrawal.failed transfer.cbit_withdrawal.pending transfer.cbit_withdrawal.completed transfer.cbit_withdrawal.failed transfer.cubix_withdrawal.pending transfer.cubix_withdrawal.completed transfer.cubix_withdrawal.failed transfer.bank_withdrawal.pending transfer.bank_withdrawal.completed transfer.bank_withdrawal.failed transfer.paxos_transfer_debit.completed transfer.paxos_transfer_credit.completed deposit_address.created conversion.stablecoin.created conversion.stablecoin.settled conversion.stablecoin.cancelled conversion.stablecoin.failed" -- "$cur")); return ;;
    "limits|--type") COMPREPLY=($(compgen -W "INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PAXOS_TRANSFER_DEBIT PAXOS_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT" -- "$cur")); return ;;
    *"|--secondary-status") COMPREPLY=($(compgen -W "TRAVEL_RULE_INFO_REQUESTED TRAVEL_RULE_REJECTED CUSTOMER_REJECTED PENDING_CUSTOMER_APPROVAL" -- "$cur")); return ;;
    *"|--from-profile-id") COMPREPLY=($(compgen -W "$(coinop __complete service-profiles "${cx[@]}" 2>/dev/null)" -- "$cur")); return ;;
    "transfer internal|--to-profile-id") COMPREPLY=($(compgen -W "$(coinop __complete service-profiles "${cx[@]}" 2>/dev/null)" -- "$cur")); return ;;
    *"|--custodian-type") COMPREPLY=($(compgen -W "VASP PRIVATE" -- "$cur")); return ;;
    "deposit-instructions create|--routing-type"|"fiat-accounts create|--routing-type") COMPREPLY=($(compgen -W "ABA SWIFT" -- "$cur")); return ;;
    *"|--recipient-profile-id") COMPREPLY=($(compgen -W "$(coinop __complete service-profiles "${cx[@]}" 2>/dev/null)" -- "$cur")); return ;;
    *"|--product") COMPREPLY=($(compgen -W "USDG_REWARDS" -- "$cur")); return ;;
    *"|--increment") COMPREPLY=($(compgen -W "ONE_MINUTE FIVE_MINUTES FIFTEEN_MINUTES THIRTY_MINUTES ONE_HOUR TWO_HOURS TWELVE_HOURS ONE_DAY ONE_WEEK TWO_WEEKS FOUR_WEEKS" -- "$cur")); return ;;
    *"|--role") COMPREPLY=($(compgen -W "viewer initiator approver admin" -- "$cur")); return ;;
    *"|--save"|*"|--request"|*"|--approvals"|*"|--journal"|*"|--key-file"|*"|--file"|*"|--public-key"|*"|--input"|*"|--tls-cert"|*"|--tls-key"|*"|--db") COMPREPLY=(); return ;;
    *"|--context"|*"|--profile"|*"|--output"|*"|-o"|*"|--env"|*"|--client-id"|*"|--scopes"|*"|--name"|*"|--profile-id"|*"|--base-url"|*"|--auth-url"|*"|--ws-url"|*"|--id"|*"|--nickname"|*"|--created-before"|*"|--created-until"|*"|--created-at"|*"|--created-from"|*"|--created-after"|*"|--limit"|*"|--order"|*"|--cursor"|*"|--columns"|*"|--description"|*"|--asset"|*"|--network"|*"|--address"|*"|--to"|*"|--amount"|*"|--total"|*"|--fee-id"|*"|--ref-id"|*"|--identity-id"|*"|--account-id"|*"|--balance-asset"|*"|--memo"|*"|--meta"|*"|--beneficiary"|*"|--beneficiary-first-name"|*"|--beneficiary-last-name"|*"|--beneficiary-institution"|*"|--wait-timeout"|*"|--save"|*"|--request"|*"|--approvals"|*"|--format"|*"|--concurrency"|*"|--rate"|*"|--journal"|*"|--fiat-account-id"|*"|--order-by"|*"|--conversion"|*"|--key-file"|*"|--status"|*"|--method"|*"|--signature"|*"|--type"|*"|--secondary-status"|*"|--tx-hash"|*"|--group-id"|*"|--destination"|*"|--metadata"|*"|--from"|*"|--updated-before"|*"|--updated-until"|*"|--updated-at"|*"|--updated-from"|*"|--updated-after"|*"|--timeout"|*"|--from-profile-id"|*"|--to-profile-id"|*"|--recipient-meta"|*"|--since"|*"|--count"|*"|--forward-to"|*"|--travel-rule"|*"|--custodian-type"|*"|--vasp-id"|*"|--vasp-name"|*"|--vasp-website"|*"|--transfer-purpose"|*"|--routing-type"|*"|--owner-name"|*"|--first-name"|*"|--last-name"|*"|--file"|*"|--account-number"|*"|--routing-number"|*"|--bank-name"|*"|--bank-country"|*"|--owner-country"|*"|--owner-address"|*"|--owner-city"|*"|--cubix-account-id"|*"|--wallet-address"|*"|--search"|*"|--originator-first-name"|*"|--originator-last-name"|*"|--originator-institution"|*"|--recipient-profile-id"|*"|--customer-id"|*"|--product"|*"|--memo-id"|*"|--instructions"|*"|--owner-address2"|*"|--owner-province"|*"|--owner-zip"|*"|--bank-address"|*"|--bank-address2"|*"|--bank-city"|*"|--bank-province"|*"|--bank-zip"|*"|--institution"|*"|--owner-first-name"|*"|--owner-last-name"|*"|--kind"|*"|--outcome"|*"|--head"|*"|--journals"|*"|--month"|*"|--out"|*"|--public-key"|*"|--increment"|*"|--max-points"|*"|--offset"|*"|--depth"|*"|--field"|*"|-f"|*"|--input"|*"|--channel"|*"|-c"|*"|--interval"|*"|--duration"|*"|--store"|*"|--upstream"|*"|--host"|*"|--port"|*"|--tls-cert"|*"|--tls-key"|*"|--approval-ttl"|*"|--role"|*"|--reason"|*"|--db"|*"|--seed") COMPREPLY=(); compopt +o default 2>/dev/null; return ;;
  esac
  local words
  if [[ $cur == -* ]]; then
    case "$cmd" in
      "") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "login") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --env --client-id --client-secret-stdin --scopes --name --profile-id --base-url --auth-url --ws-url --activate --help -h" ;;
      "logout") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "auth") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "auth status") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "context") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "context list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "context use") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "context show") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "context rename") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "context delete") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --yes -y --help -h" ;;
      "context set-profile-id") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "config") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "config list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "config get") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "config set") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "config unset") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "profiles") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "profiles list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --id --nickname --created-before --created-until --created-at --created-from --created-after --limit --order --cursor --all --columns --wide --help -h" ;;
      "profiles get") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --include-deactivated --help -h" ;;
      "profiles create") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --nickname --description --help -h" ;;
      "balances") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --columns --wide --profile-id --all-profiles --include-zero --help -h" ;;
      "withdraw") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --asset --network --address --to --amount --total --fee-id --quote --ref-id --profile-id --identity-id --account-id --balance-asset --memo --meta --beneficiary --beneficiary-first-name --beneficiary-last-name --beneficiary-institution --dry-run --yes -y --wait --wait-approval --wait-timeout --save --request --approvals --help -h" ;;
      "withdraw batch") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --format --profile-id --dry-run --yes -y --resume --retry-failed --skip-invalid --wait --wait-approval --wait-timeout --concurrency --rate --journal --allow-repeat --allow-partial --approvals --help -h" ;;
      "withdraw fiat") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --fiat-account-id --amount --total --asset --ref-id --profile-id --identity-id --account-id --memo --meta --save --request --approvals --dry-run --yes -y --wait --wait-timeout --wait-approval --help -h" ;;
      "fee") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "fee quote") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --asset --network --address --amount --total --help -h" ;;
      "addresses") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "addresses list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --columns --wide --profile-id --identity-id --account-id --id --ref-id --network --created-before --created-until --created-at --created-from --created-after --limit --order --order-by --cursor --all --help -h" ;;
      "addresses create") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --network --profile-id --identity-id --account-id --ref-id --conversion --meta --help -h" ;;
      "addresses verify") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --network --address --key-file --ref-id --help -h" ;;
      "addresses verifications") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "addresses verifications list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --status --method --network --address --created-before --created-until --created-at --created-from --created-after --limit --order --order-by --cursor --all --columns --wide --help -h" ;;
      "addresses verifications get") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "addresses verifications submit") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --key-file --signature --help -h" ;;
      "transfers") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "transfers list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --id --ref-id --profile-id --identity-id --account-id --type --status --secondary-status --tx-hash --group-id --asset --network --destination --metadata --from --to --created-before --created-until --created-at --created-from --created-after --updated-before --updated-until --updated-at --updated-from --updated-after --limit --order --order-by --cursor --all --columns --wide --help -h" ;;
      "transfers get") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --ref-id --help -h" ;;
      "transfers watch") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --wait-timeout --columns --wide --help -h" ;;
      "transfer") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "transfer internal") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --from-profile-id --to-profile-id --asset --amount --ref-id --meta --recipient-meta --dry-run --yes -y --wait --wait-timeout --help -h" ;;
      "transfer paxos") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --from-profile-id --to-profile-id --asset --amount --ref-id --meta --recipient-meta --dry-run --yes -y --wait --wait-timeout --help -h" ;;
      "events") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "events list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --type --created-before --created-until --created-at --created-from --created-after --limit --order --cursor --all --columns --wide --help -h" ;;
      "events get") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "events watch") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --type --since --count --help -h" ;;
      "events listen") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --forward-to --concurrency --timeout --print-secret --type --since --count --help -h" ;;
      "destinations") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "destinations list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --nickname --network --address --id --identity-id --bookmarked --not-bookmarked --created-before --created-until --created-at --created-from --created-after --limit --order --order-by --cursor --all --columns --wide --help -h" ;;
      "destinations put") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --network --address --id --nickname --bookmark --no-bookmark --identity-id --travel-rule --custodian-type --vasp-id --vasp-name --vasp-website --beneficiary-first-name --beneficiary-last-name --beneficiary-institution --beneficiary-self --transfer-purpose --help -h" ;;
      "limits") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --columns --wide --type --help -h" ;;
      "policy") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "policy show") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "policy check") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "policy init") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --force --help -h" ;;
      "approve") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --show-key --format --profile-id --skip-invalid --allow-repeat --yes -y --help -h" ;;
      "deposit-instructions") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "deposit-instructions create") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --network --routing-type --profile-id --identity-id --account-id --ref-id --meta --help -h" ;;
      "deposit-instructions list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --id --ref-id --created-before --created-until --created-at --created-from --created-after --limit --order --cursor --all --columns --wide --help -h" ;;
      "deposit-instructions get") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "fiat-accounts") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "fiat-accounts create") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --network --owner-name --first-name --last-name --meta --file --account-number --routing-number --routing-type --bank-name --bank-country --owner-country --owner-address --owner-city --cubix-account-id --wallet-address --identity-id --account-id --ref-id --help -h" ;;
      "fiat-accounts list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --id --ref-id --include-deleted --created-before --created-until --created-at --created-from --created-after --limit --order --cursor --all --columns --wide --help -h" ;;
      "fiat-accounts get") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "fiat-accounts update") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --owner-name --first-name --last-name --meta --file --bank-name --help -h" ;;
      "fiat-accounts delete") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --yes -y --help -h" ;;
      "vasps") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "vasps list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --search --id --limit --order --cursor --all --columns --wide --help -h" ;;
      "vasps get") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "deposits") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "deposits update") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --identity-id --yes -y --originator-first-name --originator-last-name --originator-institution --help -h" ;;
      "deposits reject") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --identity-id --yes -y --help -h" ;;
      "convert") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --amount --from --to --ref-id --profile-id --recipient-profile-id --identity-id --account-id --meta --approvals --dry-run --yes -y --wait --wait-timeout --wait-approval --help -h" ;;
      "conversions") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "conversions list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --profile-id --ref-id --created-before --created-until --created-at --created-from --created-after --limit --order --cursor --all --columns --wide --help -h" ;;
      "conversions get") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "conversions cancel") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --yes -y --help -h" ;;
      "statements") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "statements list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --customer-id --status --id --ref-id --limit --order --cursor --all --columns --wide --help -h" ;;
      "statements payments") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --customer-id --product --status --id --ref-id --limit --order --cursor --all --columns --wide --help -h" ;;
      "sandbox") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "sandbox deposit") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --amount --asset --memo-id --instructions --file --account-number --owner-country --owner-address --owner-address2 --owner-city --owner-province --owner-zip --routing-type --routing-number --bank-name --bank-country --bank-address --bank-address2 --bank-city --bank-province --bank-zip --institution --owner-first-name --owner-last-name --help -h" ;;
      "audit") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "audit list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --kind --outcome --from --to --ref-id --asset --limit --all --gateway --columns --wide --help -h" ;;
      "audit verify") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --head --gateway --help -h" ;;
      "audit export") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --from --to --gateway --help -h" ;;
      "audit path") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "reconcile") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --from --to --profile-id --journals --gateway --columns --wide --help -h" ;;
      "statement") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --profile-id --month --from --to --help -h" ;;
      "close") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --month --out --profile-id --help -h" ;;
      "close verify") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --month --out --profile-id --public-key --help -h" ;;
      "prices") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --columns --wide --increment --max-points --from --to --limit --offset --all --help -h" ;;
      "markets") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --columns --wide --refresh --help -h" ;;
      "ticker") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "book") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --depth --help -h" ;;
      "trades") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --columns --wide --limit --help -h" ;;
      "api") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --field -f --input --paginate --include -i --yes -y --help -h" ;;
      "doctor") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --timeout --help -h" ;;
      "stream") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --channel -c --book --interval --depth --duration --count --help -h" ;;
      "stream book") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --channel -c --book --interval --depth --duration --count --help -h" ;;
      "stream top") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --channel -c --book --interval --depth --duration --count --help -h" ;;
      "stream trades") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --channel -c --book --interval --depth --duration --count --help -h" ;;
      "stream heartbeat") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --channel -c --book --interval --depth --duration --count --help -h" ;;
      "mcp") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --allow-writes --allow-production --help -h" ;;
      "gateway") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "gateway init") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --store --help -h" ;;
      "gateway start") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --upstream --store --host --port --tls-cert --tls-key --rate --approval-ttl --help -h" ;;
      "gateway operators") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "gateway operators add") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --role --store --help -h" ;;
      "gateway operators list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --store --help -h" ;;
      "gateway operators disable") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --store --help -h" ;;
      "gateway operators enable") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --store --help -h" ;;
      "gateway policy") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "gateway policy show") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --store --help -h" ;;
      "gateway policy set") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --store --gateway --approval-ttl --help -h" ;;
      "gateway policy history") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --store --help -h" ;;
      "approvals") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "approvals list") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --status --help -h" ;;
      "approvals show") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "approvals approve") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --yes --help -h" ;;
      "approvals reject") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --reason --help -h" ;;
      "local") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
      "local start") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --port --host --db --memory --seed --no-rate-limits --help -h" ;;
      "local deposit") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --address --ref-id --amount --asset --needs-info --help -h" ;;
      "completion") words="--version -V --context --output -o --json --no-input --no-color --no-pager --debug --help -h" ;;
    esac
  else
    case "$cmd" in
      "") words="login logout auth context config profiles balances withdraw fee addresses transfers transfer events destinations limits policy approve deposit-instructions fiat-accounts vasps deposits convert conversions statements sandbox audit reconcile statement close prices markets ticker book trades api doctor stream mcp gateway approvals local completion" ;;
      "login") words="" ;;
      "logout") words="" ;;
      "auth") words="status" ;;
      "auth status") words="" ;;
      "context") words="list use show rename delete set-profile-id" ;;
      "context list") words="" ;;
      "context use") words="" ;;
      "context show") words="" ;;
      "context rename") words="" ;;
      "context delete") words="" ;;
      "context set-profile-id") words="" ;;
      "config") words="list get set unset" ;;
      "config list") words="" ;;
      "config get") words="" ;;
      "config set") words="" ;;
      "config unset") words="" ;;
      "profiles") words="list get create" ;;
      "profiles list") words="" ;;
      "profiles get") words="" ;;
      "profiles create") words="" ;;
      "balances") words="BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB USD EUR GBP BRL MXN" ;;
      "withdraw") words="batch fiat" ;;
      "withdraw batch") words="" ;;
      "withdraw fiat") words="" ;;
      "fee") words="quote" ;;
      "fee quote") words="" ;;
      "addresses") words="list create verify verifications" ;;
      "addresses list") words="" ;;
      "addresses create") words="" ;;
      "addresses verify") words="" ;;
      "addresses verifications") words="list get submit" ;;
      "addresses verifications list") words="" ;;
      "addresses verifications get") words="" ;;
      "addresses verifications submit") words="" ;;
      "transfers") words="list get watch" ;;
      "transfers list") words="" ;;
      "transfers get") words="" ;;
      "transfers watch") words="" ;;
      "transfer") words="internal paxos" ;;
      "transfer internal") words="" ;;
      "transfer paxos") words="" ;;
      "events") words="list get watch listen" ;;
      "events list") words="" ;;
      "events get") words="" ;;
      "events watch") words="" ;;
      "events listen") words="" ;;
      "destinations") words="list put" ;;
      "destinations list") words="" ;;
      "destinations put") words="" ;;
      "limits") words="" ;;
      "policy") words="show check init" ;;
      "policy show") words="" ;;
      "policy check") words="" ;;
      "policy init") words="" ;;
      "approve") words="" ;;
      "deposit-instructions") words="create list get" ;;
      "deposit-instructions create") words="" ;;
      "deposit-instructions list") words="" ;;
      "deposit-instructions get") words="" ;;
      "fiat-accounts") words="create list get update delete" ;;
      "fiat-accounts create") words="" ;;
      "fiat-accounts list") words="" ;;
      "fiat-accounts get") words="" ;;
      "fiat-accounts update") words="" ;;
      "fiat-accounts delete") words="" ;;
      "vasps") words="list get" ;;
      "vasps list") words="" ;;
      "vasps get") words="" ;;
      "deposits") words="update reject" ;;
      "deposits update") words="" ;;
      "deposits reject") words="" ;;
      "convert") words="" ;;
      "conversions") words="list get cancel" ;;
      "conversions list") words="" ;;
      "conversions get") words="" ;;
      "conversions cancel") words="" ;;
      "statements") words="list payments" ;;
      "statements list") words="" ;;
      "statements payments") words="" ;;
      "sandbox") words="deposit" ;;
      "sandbox deposit") words="" ;;
      "audit") words="list verify export path" ;;
      "audit list") words="" ;;
      "audit verify") words="" ;;
      "audit export") words="" ;;
      "audit path") words="" ;;
      "reconcile") words="" ;;
      "statement") words="" ;;
      "close") words="verify" ;;
      "close verify") words="" ;;
      "prices") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD" ;;
      "markets") words="" ;;
      "ticker") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD" ;;
      "book") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD" ;;
      "trades") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD" ;;
      "api") words="GET POST PUT PATCH DELETE" ;;
      "doctor") words="" ;;
      "stream") words="book top trades heartbeat" ;;
      "stream book") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD" ;;
      "stream top") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD" ;;
      "stream trades") words="ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD" ;;
      "stream heartbeat") words="" ;;
      "mcp") words="" ;;
      "gateway") words="init start operators policy" ;;
      "gateway init") words="" ;;
      "gateway start") words="" ;;
      "gateway operators") words="add list disable enable" ;;
      "gateway operators add") words="" ;;
      "gateway operators list") words="" ;;
      "gateway operators disable") words="" ;;
      "gateway operators enable") words="" ;;
      "gateway policy") words="show set history" ;;
      "gateway policy show") words="" ;;
      "gateway policy set") words="" ;;
      "gateway policy history") words="" ;;
      "approvals") words="list show approve reject" ;;
      "approvals list") words="" ;;
      "approvals show") words="" ;;
      "approvals approve") words="" ;;
      "approvals reject") words="" ;;
      "local") words="start deposit" ;;
      "local start") words="" ;;
      "local deposit") words="" ;;
      "completion") words="bash zsh fish" ;;
    esac
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _coinop coinop
