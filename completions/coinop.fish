# coinop shell completion, generated from the command tree (coinop completion SHELL). Do not edit.
complete -c coinop -f
# The command path typed so far: options and the values of those that take one are skipped.
function __coinop_path
    set -l words (commandline -opc)
    set -l path ''
    set -l i 2
    while test $i -le (count $words)
        set -l w $words[$i]
        set i (math $i + 1)
        if string match -q -- '-*' $w
            switch "$path|$w"
                case '*|--context' '*|--profile' '*|--output' '*|-o' '*|--env' '*|--client-id' '*|--scopes' '*|--name' '*|--profile-id' '*|--base-url' '*|--auth-url' '*|--ws-url' '*|--id' '*|--nickname' '*|--created-before' '*|--created-until' '*|--created-at' '*|--created-from' '*|--created-after' '*|--limit' '*|--order' '*|--cursor' '*|--columns' '*|--description' '*|--asset' '*|--network' '*|--address' '*|--to' '*|--amount' '*|--total' '*|--fee-id' '*|--ref-id' '*|--identity-id' '*|--account-id' '*|--balance-asset' '*|--memo' '*|--meta' '*|--beneficiary' '*|--wait-timeout' '*|--save' '*|--request' '*|--approvals' '*|--format' '*|--concurrency' '*|--rate' '*|--journal' '*|--order-by' '*|--conversion' '*|--type' '*|--status' '*|--secondary-status' '*|--tx-hash' '*|--group-id' '*|--updated-before' '*|--updated-until' '*|--updated-at' '*|--updated-from' '*|--updated-after' '*|--timeout' '*|--from-profile-id' '*|--to-profile-id' '*|--recipient-meta' '*|--travel-rule' '*|--routing-type' '*|--memo-id' '*|--instructions' '*|--file' '*|--account-number' '*|--owner-country' '*|--owner-address' '*|--owner-address2' '*|--owner-city' '*|--owner-province' '*|--owner-zip' '*|--routing-number' '*|--bank-name' '*|--bank-country' '*|--bank-address' '*|--bank-address2' '*|--bank-city' '*|--bank-province' '*|--bank-zip' '*|--institution' '*|--owner-first-name' '*|--owner-last-name' '*|--kind' '*|--outcome' '*|--from' '*|--head' '*|--increment' '*|--max-points' '*|--offset' '*|--depth' '*|--field' '*|-f' '*|--input' '*|--channel' '*|-c' '*|--interval' '*|--duration' '*|--count' '*|--port' '*|--host' '*|--db' '*|--seed'
                    set i (math $i + 1)
            end
            continue
        end
        set -l next (string trim -- "$path $w")
        contains -- $next 'login' 'logout' 'auth' 'auth status' 'context' 'context list' 'context use' 'context show' 'context rename' 'context delete' 'context set-profile-id' 'config' 'config list' 'config get' 'config set' 'config unset' 'profiles' 'profiles list' 'profiles get' 'profiles create' 'balances' 'withdraw' 'withdraw batch' 'fee' 'fee quote' 'addresses' 'addresses list' 'addresses create' 'transfers' 'transfers list' 'transfers get' 'transfers watch' 'transfer' 'transfer internal' 'destinations' 'destinations list' 'destinations put' 'limits' 'policy' 'policy show' 'policy check' 'policy init' 'approve' 'deposit-instructions' 'deposit-instructions create' 'deposit-instructions list' 'deposit-instructions get' 'sandbox' 'sandbox deposit' 'audit' 'audit list' 'audit verify' 'audit export' 'audit path' 'prices' 'markets' 'ticker' 'book' 'trades' 'api' 'doctor' 'stream' 'stream book' 'stream top' 'stream trades' 'stream heartbeat' 'local' 'local start' 'local deposit' 'completion'; and set path $next
    end
    echo $path
end
function __coinop_is
    test "$(__coinop_path)" = "$argv[1]"
end
# The networks of the --asset given (any case); every crypto network without one.
function __coinop_networks
    set -l words (commandline -opc)
    set -l asset ''
    for i in (seq (count $words))
        test "$words[$i]" = --asset; and set asset $words[(math $i + 1)]
        string match -q -- '--asset=*' $words[$i]; and set asset (string replace -- --asset= '' $words[$i])
    end
    switch (string upper -- "$asset")
        case BTC
            printf '%s\n' BITCOIN
        case ETH
            printf '%s\n' ETHEREUM BASE ARBITRUM_ONE INK XLAYER ROBINHOOD
        case BCH
            printf '%s\n' BITCOIN_CASH
        case LTC
            printf '%s\n' LITECOIN
        case SOL
            printf '%s\n' SOLANA
        case PAXG
            printf '%s\n' ETHEREUM
        case LINK
            printf '%s\n' ETHEREUM
        case AAVE
            printf '%s\n' ETHEREUM
        case UNI
            printf '%s\n' ETHEREUM
        case MATIC
            printf '%s\n' POLYGON_POS ETHEREUM
        case USDP
            printf '%s\n' ETHEREUM SOLANA
        case PYUSD
            printf '%s\n' ETHEREUM SOLANA STELLAR ARBITRUM_ONE
        case PEPE
            printf '%s\n' ETHEREUM
        case TRUMP
            printf '%s\n' SOLANA
        case SHIB
            printf '%s\n' ETHEREUM
        case ARB
            printf '%s\n' ARBITRUM_ONE ETHEREUM
        case BONK
            printf '%s\n' SOLANA
        case ENA
            printf '%s\n' ETHEREUM
        case MNT
            printf '%s\n' ETHEREUM
        case ONDO
            printf '%s\n' ETHEREUM
        case PENGU
            printf '%s\n' SOLANA
        case QNT
            printf '%s\n' ETHEREUM
        case RENDER
            printf '%s\n' SOLANA
        case SKY
            printf '%s\n' ETHEREUM
        case WIF
            printf '%s\n' SOLANA
        case WLD
            printf '%s\n' ETHEREUM
        case DOGE
            printf '%s\n' DOGECOIN
        case AVAX
            printf '%s\n' AVALANCHE
        case SUI
            printf '%s\n' SUI
        case POL
            printf '%s\n' POLYGON_POS ETHEREUM
        case XLM
            printf '%s\n' STELLAR
        case BNB
            printf '%s\n' BNB
        case '*'
            printf '%s\n' BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB
    end
end
complete -c coinop -s V -l version -d 'print the version'
complete -c coinop -l context -x -a '(coinop __complete profiles 2>/dev/null)' -d 'context to use: saved endpoints and credentials'
complete -c coinop -s o -l output -x -a 'table json ndjson csv' -d 'output format'
complete -c coinop -l json -d 'short for -o json'
complete -c coinop -l no-input -d 'never prompt'
complete -c coinop -l no-color -d 'no colour'
complete -c coinop -l no-pager -d 'never page long tables'
complete -c coinop -l debug -d 'log every request and response to stderr'
complete -c coinop -s h -l help -d 'show help'
complete -c coinop -n '__coinop_is \'\'' -a login -d 'save credentials for an environment as a profile'
complete -c coinop -n '__coinop_is \'\'' -a logout -d 'forget the credentials and cached tokens of a profile'
complete -c coinop -n '__coinop_is \'\'' -a auth -d 'authentication'
complete -c coinop -n '__coinop_is \'\'' -a context -d 'coinop\'s saved contexts: an environment\'s endpoints and credentials'
complete -c coinop -n '__coinop_is \'\'' -a config -d 'defaults kept in the configuration file: output format, pager, context, batch rate, timeouts'
complete -c coinop -n '__coinop_is \'\'' -a profiles -d 'the service\'s profiles, which hold balances'
complete -c coinop -n '__coinop_is \'\'' -a balances -d 'what the service\'s profiles hold: available'
complete -c coinop -n '__coinop_is \'\'' -a withdraw -d 'send crypto from a profile balance to a blockchain address'
complete -c coinop -n '__coinop_is \'\'' -a fee -d 'withdrawal fees'
complete -c coinop -n '__coinop_is \'\'' -a addresses -d 'crypto deposit addresses'
complete -c coinop -n '__coinop_is \'\'' -a transfers -d 'transfers: withdrawals, deposits and the rest'
complete -c coinop -n '__coinop_is \'\'' -a transfer -d 'move money within the service'
complete -c coinop -n '__coinop_is \'\'' -a destinations -d 'the address book: crypto destination addresses by nickname'
complete -c coinop -n '__coinop_is \'\'' -a limits -d 'transfer limits: what is used and what is left of each, per transfer and per period'
complete -c coinop -n '__coinop_is \'\'' -a policy -d 'the profile\'s policy: the rules checked before any money moves, in <config dir>/policies/<profile>.yaml'
complete -c coinop -n '__coinop_is \'\'' -a approve -d 'sign a batch file, or a withdrawal saved by withdraw --dry-run --save, with your Ed25519 key'
complete -c coinop -n '__coinop_is \'\'' -a deposit-instructions -d 'fiat deposit instructions: where a customer sends fiat, with the memo_id that credits a profile'
complete -c coinop -n '__coinop_is \'\'' -a sandbox -d 'sandbox-only simulations'
complete -c coinop -n '__coinop_is \'\'' -a audit -d 'the audit trail: every attempt to move money, hash-chained in a local log'
complete -c coinop -n '__coinop_is \'\'' -a prices -d 'historical average prices of a market'
complete -c coinop -n '__coinop_is \'\'' -a markets -d 'the markets: the CLI\'s catalogue and what the service lists'
complete -c coinop -n '__coinop_is \'\'' -a ticker -d 'a market\'s best bid and ask, last trade, and the last 24 hours and today: open, high, low, volume'
complete -c coinop -n '__coinop_is \'\'' -a book -d 'one snapshot of a market\'s order book: bids and asks side by side, best first'
complete -c coinop -n '__coinop_is \'\'' -a trades -d 'a market\'s most recent trades, newest first'
complete -c coinop -n '__coinop_is \'\'' -a api -d 'a raw authenticated request, like gh api'
complete -c coinop -n '__coinop_is \'\'' -a doctor -d 'check the setup: file permissions, each saved profile\'s endpoints, token and clock, completion, policy files'
complete -c coinop -n '__coinop_is \'\'' -a stream -d 'live market data: a live view on a terminal, one JSON object per line when piped or with -o ndjson'
complete -c coinop -n '__coinop_is \'\'' -a local -d 'the local service: a faithful, stateful stand-in for the hosted one'
complete -c coinop -n '__coinop_is \'\'' -a completion -d 'print a shell completion script'
complete -c coinop -n '__coinop_is \'login\'' -l env -x -a 'local sandbox production custom' -d 'environment'
complete -c coinop -n '__coinop_is \'login\'' -l client-id -x -d 'OAuth client id'
complete -c coinop -n '__coinop_is \'login\'' -l client-secret-stdin -d 'read the client secret from stdin'
complete -c coinop -n '__coinop_is \'login\'' -l scopes -x -d 'scopes to request, comma separated'
complete -c coinop -n '__coinop_is \'login\'' -l name -x -d 'context name to save under'
complete -c coinop -n '__coinop_is \'login\'' -l profile-id -x -d 'the service\'s profile id that withdrawals and deposit addresses use by default'
complete -c coinop -n '__coinop_is \'login\'' -l base-url -x -d 'API address'
complete -c coinop -n '__coinop_is \'login\'' -l auth-url -x -d 'token endpoint host'
complete -c coinop -n '__coinop_is \'login\'' -l ws-url -x -d 'stream address'
complete -c coinop -n '__coinop_is \'login\'' -l activate -d 'make a production profile the active one without asking'
complete -c coinop -n '__coinop_is \'auth\'' -a status -d 'profile, environment, addresses, granted scopes and token expiry'
complete -c coinop -n '__coinop_is \'context\'' -a list -d 'every context'
complete -c coinop -n '__coinop_is \'context\'' -a use -d 'make a context the active one'
complete -c coinop -n '__coinop_is \'context\'' -a show -d 'one context'
complete -c coinop -n '__coinop_is \'context\'' -a rename -d 'rename a saved context'
complete -c coinop -n '__coinop_is \'context\'' -a delete -d 'delete a saved context with its secret and cached tokens'
complete -c coinop -n '__coinop_is \'context\'' -a set-profile-id -d 'set the service\'s profile id a saved context defaults to, without logging in again'
complete -c coinop -n '__coinop_is \'context delete\'' -s y -l yes -d 'do not ask'
complete -c coinop -n '__coinop_is \'config\'' -a list -d 'every key with its value and where it comes from'
complete -c coinop -n '__coinop_is \'config\'' -a get -d 'the value a command uses now'
complete -c coinop -n '__coinop_is \'config\'' -a set -d 'keep a default in the configuration file'
complete -c coinop -n '__coinop_is \'config\'' -a unset -d 'remove a default from the configuration file'
complete -c coinop -n '__coinop_is \'profiles\'' -a list -d 'the service\'s profiles, oldest first'
complete -c coinop -n '__coinop_is \'profiles\'' -a get -d 'one service profile'
complete -c coinop -n '__coinop_is \'profiles\'' -a create -d 'create a service profile'
complete -c coinop -n '__coinop_is \'profiles list\'' -l id -x -d 'profile ids'
complete -c coinop -n '__coinop_is \'profiles list\'' -l nickname -x -d 'nicknames starting with this'
complete -c coinop -n '__coinop_is \'profiles list\'' -l created-before -x -d 'created_at.lt: RFC 3339, a date'
complete -c coinop -n '__coinop_is \'profiles list\'' -l created-until -x -d 'created_at.lte'
complete -c coinop -n '__coinop_is \'profiles list\'' -l created-at -x -d 'created_at.eq'
complete -c coinop -n '__coinop_is \'profiles list\'' -l created-from -x -d 'created_at.gte'
complete -c coinop -n '__coinop_is \'profiles list\'' -l created-after -x -d 'created_at.gt'
complete -c coinop -n '__coinop_is \'profiles list\'' -l limit -x -d 'items per page'
complete -c coinop -n '__coinop_is \'profiles list\'' -l order -x -a 'DESC ASC' -d 'sort direction'
complete -c coinop -n '__coinop_is \'profiles list\'' -l cursor -x -d 'start from this page cursor'
complete -c coinop -n '__coinop_is \'profiles list\'' -l all -d 'every page'
complete -c coinop -n '__coinop_is \'profiles list\'' -l columns -x -d 'the table'
complete -c coinop -n '__coinop_is \'profiles list\'' -l wide -d 'every column of the table, none left out to fit the terminal'
complete -c coinop -n '__coinop_is \'profiles get\'' -l include-deactivated -d 'find it even when it was deactivated'
complete -c coinop -n '__coinop_is \'profiles create\'' -l nickname -x -d 'its name, unique among the profiles'
complete -c coinop -n '__coinop_is \'profiles create\'' -l description -x -d 'what it is for'
complete -c coinop -n '__coinop_is \'balances\'' -a 'BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB USD EUR GBP BRL MXN'
complete -c coinop -n '__coinop_is \'balances\'' -l columns -x -d 'the table'
complete -c coinop -n '__coinop_is \'balances\'' -l wide -d 'every column of the table, none left out to fit the terminal'
complete -c coinop -n '__coinop_is \'balances\'' -l profile-id -x -d 'the service\'s profile'
complete -c coinop -n '__coinop_is \'balances\'' -l all-profiles -d 'every service profile, in one table'
complete -c coinop -n '__coinop_is \'balances\'' -l include-zero -d 'also list assets with nothing in them'
complete -c coinop -n '__coinop_is \'withdraw\'' -a batch -d 'send many withdrawals from a file, each exactly once, resumable after a crash'
complete -c coinop -n '__coinop_is \'withdraw\'' -l asset -x -a 'BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB' -d 'asset to withdraw, such as BTC'
complete -c coinop -n '__coinop_is \'withdraw\'' -l network -x -a '(__coinop_networks)' -d 'crypto network'
complete -c coinop -n '__coinop_is \'withdraw\'' -l address -x -d 'destination address'
complete -c coinop -n '__coinop_is \'withdraw\'' -l to -x -d 'the destination from the address book, by nickname: its address and network'
complete -c coinop -n '__coinop_is \'withdraw\'' -l amount -x -d 'amount to send'
complete -c coinop -n '__coinop_is \'withdraw\'' -l total -x -d 'total to debit, fee included'
complete -c coinop -n '__coinop_is \'withdraw\'' -l fee-id -x -d 'use a guaranteed fee quote'
complete -c coinop -n '__coinop_is \'withdraw\'' -l quote -d 'get a guaranteed fee quote first and use it'
complete -c coinop -n '__coinop_is \'withdraw\'' -l ref-id -x -d 'client id for replay protection'
complete -c coinop -n '__coinop_is \'withdraw\'' -l profile-id -x -d 'the service\'s profile to debit'
complete -c coinop -n '__coinop_is \'withdraw\'' -l identity-id -x -d 'identity making the withdrawal'
complete -c coinop -n '__coinop_is \'withdraw\'' -l account-id -x -d 'account of the identity'
complete -c coinop -n '__coinop_is \'withdraw\'' -l balance-asset -x -d 'asset whose balance to debit'
complete -c coinop -n '__coinop_is \'withdraw\'' -l memo -x -d 'memo sent with the withdrawal'
complete -c coinop -n '__coinop_is \'withdraw\'' -l meta -x -d 'metadata pair'
complete -c coinop -n '__coinop_is \'withdraw\'' -l beneficiary -x -d 'beneficiary details as a JSON object'
complete -c coinop -n '__coinop_is \'withdraw\'' -l dry-run -d 'validate, quote and show what would be sent'
complete -c coinop -n '__coinop_is \'withdraw\'' -s y -l yes -d 'do not ask for confirmation'
complete -c coinop -n '__coinop_is \'withdraw\'' -l wait -d 'follow the transfer until COMPLETED or FAILED'
complete -c coinop -n '__coinop_is \'withdraw\'' -l wait-timeout -x -d 'give up waiting after this long'
complete -c coinop -n '__coinop_is \'withdraw\'' -l save -r -F -d 'with --dry-run: save the request to FILE for approval'
complete -c coinop -n '__coinop_is \'withdraw\'' -l request -r -F -d 'send the withdrawal saved by --dry-run --save FILE'
complete -c coinop -n '__coinop_is \'withdraw\'' -l approvals -r -F -d 'an approval file'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -F
complete -c coinop -n '__coinop_is \'withdraw batch\'' -l format -x -a 'csv jsonl json' -d 'file format'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -l profile-id -x -d 'profile for rows without a profile_id'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -l dry-run -d 'validate, get a guaranteed fee for every row and print totals per asset and network'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -s y -l yes -d 'do not ask for confirmation'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -l resume -d 'continue an interrupted run of the same file from its journal'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -l retry-failed -d 'with --resume: send the rows the service refused again'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -l skip-invalid -d 'send the valid rows even when some rows are invalid'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -l wait -d 'follow every transfer until it is COMPLETED or FAILED'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -l wait-timeout -x -d 'with --wait: give up waiting after this long'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -l concurrency -x -d 'requests in flight at once'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -l rate -x -d 'most withdrawals per second'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -l journal -r -F -d 'journal file'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -l allow-repeat -d 'pay rows again that another batch already paid'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -l allow-partial -d 'send a batch even when the available balance cannot cover every row'
complete -c coinop -n '__coinop_is \'withdraw batch\'' -l approvals -r -F -d 'an approval file'
complete -c coinop -n '__coinop_is \'fee\'' -a quote -d 'a guaranteed withdrawal fee: fee, amount, total and time to expiry'
complete -c coinop -n '__coinop_is \'fee quote\'' -l asset -x -a 'BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB' -d 'asset to withdraw'
complete -c coinop -n '__coinop_is \'fee quote\'' -l network -x -a '(__coinop_networks)' -d 'crypto network'
complete -c coinop -n '__coinop_is \'fee quote\'' -l address -x -d 'destination address'
complete -c coinop -n '__coinop_is \'fee quote\'' -l amount -x -d 'amount to send'
complete -c coinop -n '__coinop_is \'fee quote\'' -l total -x -d 'total including the fee'
complete -c coinop -n '__coinop_is \'addresses\'' -a list -d 'deposit addresses, filtered'
complete -c coinop -n '__coinop_is \'addresses\'' -a create -d 'create a deposit address'
complete -c coinop -n '__coinop_is \'addresses list\'' -l columns -x -d 'the table'
complete -c coinop -n '__coinop_is \'addresses list\'' -l wide -d 'every column of the table, none left out to fit the terminal'
complete -c coinop -n '__coinop_is \'addresses list\'' -l profile-id -x -d 'service profile ids'
complete -c coinop -n '__coinop_is \'addresses list\'' -l identity-id -x -d 'identity ids'
complete -c coinop -n '__coinop_is \'addresses list\'' -l account-id -x -d 'account ids'
complete -c coinop -n '__coinop_is \'addresses list\'' -l id -x -d 'deposit address ids'
complete -c coinop -n '__coinop_is \'addresses list\'' -l ref-id -x -d 'client-specified ids'
complete -c coinop -n '__coinop_is \'addresses list\'' -l network -x -a 'BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB' -d 'networks, such as BITCOIN'
complete -c coinop -n '__coinop_is \'addresses list\'' -l created-before -x -d 'created strictly before'
complete -c coinop -n '__coinop_is \'addresses list\'' -l created-until -x -d 'created at or before'
complete -c coinop -n '__coinop_is \'addresses list\'' -l created-at -x -d 'created exactly at'
complete -c coinop -n '__coinop_is \'addresses list\'' -l created-from -x -d 'created at or after'
complete -c coinop -n '__coinop_is \'addresses list\'' -l created-after -x -d 'created strictly after'
complete -c coinop -n '__coinop_is \'addresses list\'' -l limit -x -d 'items per page'
complete -c coinop -n '__coinop_is \'addresses list\'' -l order -x -a 'DESC ASC' -d 'sort direction'
complete -c coinop -n '__coinop_is \'addresses list\'' -l order-by -x -a 'CREATED_AT' -d 'sort key'
complete -c coinop -n '__coinop_is \'addresses list\'' -l cursor -x -d 'start from this page cursor'
complete -c coinop -n '__coinop_is \'addresses list\'' -l all -d 'every page'
complete -c coinop -n '__coinop_is \'addresses create\'' -l network -x -a 'BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB' -d 'crypto network'
complete -c coinop -n '__coinop_is \'addresses create\'' -l profile-id -x -d 'the service\'s profile'
complete -c coinop -n '__coinop_is \'addresses create\'' -l identity-id -x -d 'identity'
complete -c coinop -n '__coinop_is \'addresses create\'' -l account-id -x -d 'account'
complete -c coinop -n '__coinop_is \'addresses create\'' -l ref-id -x -d 'client id for replay protection'
complete -c coinop -n '__coinop_is \'addresses create\'' -l conversion -x -a 'NO_CONVERSION USD' -d 'convert deposits to'
complete -c coinop -n '__coinop_is \'addresses create\'' -l meta -x -d 'metadata pair'
complete -c coinop -n '__coinop_is \'transfers\'' -a list -d 'transfers, filtered'
complete -c coinop -n '__coinop_is \'transfers\'' -a get -d 'one transfer'
complete -c coinop -n '__coinop_is \'transfers\'' -a watch -d 'follow transfers until they end'
complete -c coinop -n '__coinop_is \'transfers list\'' -l id -x -d 'transfer ids'
complete -c coinop -n '__coinop_is \'transfers list\'' -l ref-id -x -d 'client-specified ids'
complete -c coinop -n '__coinop_is \'transfers list\'' -l profile-id -x -d 'service profile ids'
complete -c coinop -n '__coinop_is \'transfers list\'' -l identity-id -x -d 'identity ids'
complete -c coinop -n '__coinop_is \'transfers list\'' -l account-id -x -d 'account ids'
complete -c coinop -n '__coinop_is \'transfers list\'' -l type -x -a 'INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PLATFORM_TRANSFER_DEBIT PLATFORM_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT PAXOS_TRANSFER_DEBIT PAXOS_TRANSFER_CREDIT' -d 'transfer types, such as CRYPTO_WITHDRAWAL'
complete -c coinop -n '__coinop_is \'transfers list\'' -l status -x -a 'PENDING COMPLETED FAILED' -d 'PENDING, COMPLETED or FAILED'
complete -c coinop -n '__coinop_is \'transfers list\'' -l secondary-status -x -a 'TRAVEL_RULE_INFO_REQUESTED TRAVEL_RULE_REJECTED CUSTOMER_REJECTED PENDING_CUSTOMER_APPROVAL' -d 'secondary statuses, such as TRAVEL_RULE_INFO_REQUESTED'
complete -c coinop -n '__coinop_is \'transfers list\'' -l tx-hash -x -d 'on-chain transaction hashes'
complete -c coinop -n '__coinop_is \'transfers list\'' -l group-id -x -d 'group ids'
complete -c coinop -n '__coinop_is \'transfers list\'' -l created-before -x -d 'created_at.lt: RFC 3339, a date'
complete -c coinop -n '__coinop_is \'transfers list\'' -l created-until -x -d 'created_at.lte'
complete -c coinop -n '__coinop_is \'transfers list\'' -l created-at -x -d 'created_at.eq'
complete -c coinop -n '__coinop_is \'transfers list\'' -l created-from -x -d 'created_at.gte'
complete -c coinop -n '__coinop_is \'transfers list\'' -l created-after -x -d 'created_at.gt'
complete -c coinop -n '__coinop_is \'transfers list\'' -l updated-before -x -d 'updated_at.lt: RFC 3339, a date'
complete -c coinop -n '__coinop_is \'transfers list\'' -l updated-until -x -d 'updated_at.lte'
complete -c coinop -n '__coinop_is \'transfers list\'' -l updated-at -x -d 'updated_at.eq'
complete -c coinop -n '__coinop_is \'transfers list\'' -l updated-from -x -d 'updated_at.gte'
complete -c coinop -n '__coinop_is \'transfers list\'' -l updated-after -x -d 'updated_at.gt'
complete -c coinop -n '__coinop_is \'transfers list\'' -l limit -x -d 'items per page'
complete -c coinop -n '__coinop_is \'transfers list\'' -l order -x -a 'DESC ASC' -d 'sort direction'
complete -c coinop -n '__coinop_is \'transfers list\'' -l order-by -x -a 'CREATED_AT UPDATED_AT' -d 'sort key'
complete -c coinop -n '__coinop_is \'transfers list\'' -l cursor -x -d 'start from this page cursor'
complete -c coinop -n '__coinop_is \'transfers list\'' -l all -d 'every page'
complete -c coinop -n '__coinop_is \'transfers list\'' -l columns -x -d 'the table'
complete -c coinop -n '__coinop_is \'transfers list\'' -l wide -d 'every column of the table, none left out to fit the terminal'
complete -c coinop -n '__coinop_is \'transfers get\'' -l ref-id -x -d 'find it by its ref_id instead'
complete -c coinop -n '__coinop_is \'transfers watch\'' -l wait-timeout -x -d 'give up waiting after this long'
complete -c coinop -n '__coinop_is \'transfers watch\'' -l columns -x -d 'the table'
complete -c coinop -n '__coinop_is \'transfers watch\'' -l wide -d 'every column of the table, none left out to fit the terminal'
complete -c coinop -n '__coinop_is \'transfer\'' -a internal -d 'move an asset between two of one customer\'s service profiles'
complete -c coinop -n '__coinop_is \'transfer internal\'' -l from-profile-id -x -d 'the service\'s profile to debit'
complete -c coinop -n '__coinop_is \'transfer internal\'' -l to-profile-id -x -d 'the service\'s profile to credit'
complete -c coinop -n '__coinop_is \'transfer internal\'' -l asset -x -a 'BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB' -d 'asset to move, such as BTC or USD'
complete -c coinop -n '__coinop_is \'transfer internal\'' -l amount -x -d 'amount to move'
complete -c coinop -n '__coinop_is \'transfer internal\'' -l ref-id -x -d 'client id for replay protection'
complete -c coinop -n '__coinop_is \'transfer internal\'' -l meta -x -d 'metadata pair of the sender\'s side'
complete -c coinop -n '__coinop_is \'transfer internal\'' -l recipient-meta -x -d 'metadata pair of the recipient\'s side'
complete -c coinop -n '__coinop_is \'transfer internal\'' -l dry-run -d 'validate and show what would be sent'
complete -c coinop -n '__coinop_is \'transfer internal\'' -s y -l yes -d 'do not ask for confirmation'
complete -c coinop -n '__coinop_is \'transfer internal\'' -l wait -d 'follow the transfer until COMPLETED or FAILED'
complete -c coinop -n '__coinop_is \'transfer internal\'' -l wait-timeout -x -d 'give up waiting after this long'
complete -c coinop -n '__coinop_is \'destinations\'' -a list -d 'addresses of the book, filtered'
complete -c coinop -n '__coinop_is \'destinations\'' -a put -d 'add an address to the book, or change one'
complete -c coinop -n '__coinop_is \'destinations list\'' -l nickname -x -d 'nicknames'
complete -c coinop -n '__coinop_is \'destinations list\'' -l network -x -a 'BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB' -d 'networks, such as ETHEREUM'
complete -c coinop -n '__coinop_is \'destinations list\'' -l address -x -d 'addresses'
complete -c coinop -n '__coinop_is \'destinations list\'' -l id -x -d 'ids'
complete -c coinop -n '__coinop_is \'destinations list\'' -l identity-id -x -d 'identities the addresses belong to'
complete -c coinop -n '__coinop_is \'destinations list\'' -l bookmarked -d 'bookmarked addresses only'
complete -c coinop -n '__coinop_is \'destinations list\'' -l not-bookmarked -d 'addresses not bookmarked only'
complete -c coinop -n '__coinop_is \'destinations list\'' -l created-before -x -d 'created strictly before'
complete -c coinop -n '__coinop_is \'destinations list\'' -l created-until -x -d 'created at or before'
complete -c coinop -n '__coinop_is \'destinations list\'' -l created-at -x -d 'created exactly at'
complete -c coinop -n '__coinop_is \'destinations list\'' -l created-from -x -d 'created at or after'
complete -c coinop -n '__coinop_is \'destinations list\'' -l created-after -x -d 'created strictly after'
complete -c coinop -n '__coinop_is \'destinations list\'' -l limit -x -d 'items per page'
complete -c coinop -n '__coinop_is \'destinations list\'' -l order -x -a 'DESC ASC' -d 'sort direction'
complete -c coinop -n '__coinop_is \'destinations list\'' -l order-by -x -a 'CREATED_AT' -d 'sort key'
complete -c coinop -n '__coinop_is \'destinations list\'' -l cursor -x -d 'start from this page cursor'
complete -c coinop -n '__coinop_is \'destinations list\'' -l all -d 'every page, streamed'
complete -c coinop -n '__coinop_is \'destinations list\'' -l columns -x -d 'the table'
complete -c coinop -n '__coinop_is \'destinations list\'' -l wide -d 'every column of the table, none left out to fit the terminal'
complete -c coinop -n '__coinop_is \'destinations put\'' -l network -x -a 'BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB' -d 'crypto network'
complete -c coinop -n '__coinop_is \'destinations put\'' -l address -x -d 'the address'
complete -c coinop -n '__coinop_is \'destinations put\'' -l id -x -d 'the id of an address of the book to change'
complete -c coinop -n '__coinop_is \'destinations put\'' -l nickname -x -d 'nickname, unique in the book'
complete -c coinop -n '__coinop_is \'destinations put\'' -l bookmark -d 'bookmark it'
complete -c coinop -n '__coinop_is \'destinations put\'' -l no-bookmark -d 'take its bookmark away'
complete -c coinop -n '__coinop_is \'destinations put\'' -l identity-id -x -d 'the identity the address belongs to'
complete -c coinop -n '__coinop_is \'destinations put\'' -l travel-rule -x -d 'travel rule details as a JSON object'
complete -c coinop -n '__coinop_is \'limits\'' -l columns -x -d 'the table'
complete -c coinop -n '__coinop_is \'limits\'' -l wide -d 'every column of the table, none left out to fit the terminal'
complete -c coinop -n '__coinop_is \'limits\'' -l type -x -a 'INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PAXOS_TRANSFER_DEBIT PAXOS_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT' -d 'transfer type the limits apply to'
complete -c coinop -n '__coinop_is \'policy\'' -a show -d 'the profile\'s policy, rule by rule'
complete -c coinop -n '__coinop_is \'policy\'' -a check -d 'validate a policy file'
complete -c coinop -n '__coinop_is \'policy\'' -a init -d 'write a commented starter policy'
complete -c coinop -n '__coinop_is \'policy check\'' -F
complete -c coinop -n '__coinop_is \'policy init\'' -l force -d 'replace the policy file the profile has'
complete -c coinop -n '__coinop_is \'approve\'' -F
complete -c coinop -n '__coinop_is \'approve\'' -l show-key -d 'print this machine\'s approver public key'
complete -c coinop -n '__coinop_is \'approve\'' -l format -x -a 'csv jsonl json' -d 'batch file format'
complete -c coinop -n '__coinop_is \'approve\'' -l profile-id -x -d 'profile for rows without a profile_id, as the batch gets it'
complete -c coinop -n '__coinop_is \'approve\'' -l skip-invalid -d 'approve the valid rows of a file with invalid ones'
complete -c coinop -n '__coinop_is \'approve\'' -s y -l yes -d 'sign without asking'
complete -c coinop -n '__coinop_is \'deposit-instructions\'' -a create -d 'new instructions with their own memo_id'
complete -c coinop -n '__coinop_is \'deposit-instructions\'' -a list -d 'instructions, filtered'
complete -c coinop -n '__coinop_is \'deposit-instructions\'' -a get -d 'one set of instructions'
complete -c coinop -n '__coinop_is \'deposit-instructions create\'' -l network -x -a 'WIRE DBS_ACT CUBIX SCB RTP' -d 'fiat network'
complete -c coinop -n '__coinop_is \'deposit-instructions create\'' -l routing-type -x -a 'ABA SWIFT' -d 'WIRE: routing number type'
complete -c coinop -n '__coinop_is \'deposit-instructions create\'' -l profile-id -x -d 'the service\'s profile deposits credit'
complete -c coinop -n '__coinop_is \'deposit-instructions create\'' -l identity-id -x -d 'the identity making the deposits'
complete -c coinop -n '__coinop_is \'deposit-instructions create\'' -l account-id -x -d 'the account of that identity'
complete -c coinop -n '__coinop_is \'deposit-instructions create\'' -l ref-id -x -d 'client id for replay protection'
complete -c coinop -n '__coinop_is \'deposit-instructions create\'' -l meta -x -d 'metadata pair'
complete -c coinop -n '__coinop_is \'deposit-instructions list\'' -l id -x -d 'ids'
complete -c coinop -n '__coinop_is \'deposit-instructions list\'' -l ref-id -x -d 'client-specified ids'
complete -c coinop -n '__coinop_is \'deposit-instructions list\'' -l created-before -x -d 'created strictly before'
complete -c coinop -n '__coinop_is \'deposit-instructions list\'' -l created-until -x -d 'created at or before'
complete -c coinop -n '__coinop_is \'deposit-instructions list\'' -l created-at -x -d 'created exactly at'
complete -c coinop -n '__coinop_is \'deposit-instructions list\'' -l created-from -x -d 'created at or after'
complete -c coinop -n '__coinop_is \'deposit-instructions list\'' -l created-after -x -d 'created strictly after'
complete -c coinop -n '__coinop_is \'deposit-instructions list\'' -l limit -x -d 'items per page'
complete -c coinop -n '__coinop_is \'deposit-instructions list\'' -l order -x -a 'DESC ASC' -d 'sort direction'
complete -c coinop -n '__coinop_is \'deposit-instructions list\'' -l cursor -x -d 'start from this page cursor'
complete -c coinop -n '__coinop_is \'deposit-instructions list\'' -l all -d 'every page, streamed'
complete -c coinop -n '__coinop_is \'deposit-instructions list\'' -l columns -x -d 'the table'
complete -c coinop -n '__coinop_is \'deposit-instructions list\'' -l wide -d 'every column of the table, none left out to fit the terminal'
complete -c coinop -n '__coinop_is \'sandbox\'' -a deposit -d 'simulate an incoming fiat wire deposit that credits the profile with this memo id'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l amount -x -d 'amount, at most 2 decimals, such as 1000.00'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l asset -x -a 'BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB' -d 'fiat asset'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l memo-id -x -d 'memo id of the deposit'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l instructions -x -d 'take the memo id from these fiat deposit instructions'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l file -r -F -d 'wire instructions as JSON: the wire object, {"wire": ...} or a whole request body'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l account-number -x -d 'the sending bank account number'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l owner-country -x -d 'the account owner\'s address: country'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l owner-address -x -d 'the account owner\'s address: line 1'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l owner-address2 -x -d 'the account owner\'s address: line 2'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l owner-city -x -d 'the account owner\'s address: city'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l owner-province -x -d 'the account owner\'s address: province or state'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l owner-zip -x -d 'the account owner\'s address: zip or postal code'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l routing-type -x -d 'the routing number type: ABA or SWIFT'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l routing-number -x -d 'the sending bank\'s routing number: 9 digits for ABA, a BIC for SWIFT'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l bank-name -x -d 'the sending bank\'s name'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l bank-country -x -d 'the bank\'s address: country'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l bank-address -x -d 'the bank\'s address: line 1'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l bank-address2 -x -d 'the bank\'s address: line 2'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l bank-city -x -d 'the bank\'s address: city'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l bank-province -x -d 'the bank\'s address: province or state'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l bank-zip -x -d 'the bank\'s address: zip or postal code'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l institution -x -d 'the account owner, an institution: its name'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l owner-first-name -x -d 'the account owner, a person: first name'
complete -c coinop -n '__coinop_is \'sandbox deposit\'' -l owner-last-name -x -d 'the account owner, a person: last name'
complete -c coinop -n '__coinop_is \'audit\'' -a list -d 'entries of the audit log, oldest first: the latest 100 that match, or --all'
complete -c coinop -n '__coinop_is \'audit\'' -a verify -d 'check the hash chain: exit 0 when whole, 9 naming each edited, removed, inserted or moved line'
complete -c coinop -n '__coinop_is \'audit\'' -a export -d 'every entry in a time range as flat rows for accountants'
complete -c coinop -n '__coinop_is \'audit\'' -a path -d 'where the audit log is'
complete -c coinop -n '__coinop_is \'audit list\'' -l kind -x -d 'kinds'
complete -c coinop -n '__coinop_is \'audit list\'' -l outcome -x -d 'results'
complete -c coinop -n '__coinop_is \'audit list\'' -l from -x -d 'entries at or after: RFC 3339, a date, now, or back from now such as 24h or 7d'
complete -c coinop -n '__coinop_is \'audit list\'' -l to -x -d 'entries before this time'
complete -c coinop -n '__coinop_is \'audit list\'' -l ref-id -x -d 'ref_ids'
complete -c coinop -n '__coinop_is \'audit list\'' -l asset -x -a 'BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB' -d 'assets'
complete -c coinop -n '__coinop_is \'audit list\'' -l limit -x -d 'the latest this many matching entries'
complete -c coinop -n '__coinop_is \'audit list\'' -l all -d 'every matching entry, streamed'
complete -c coinop -n '__coinop_is \'audit verify\'' -l head -x -d 'also check the log still holds this head, noted from an earlier verify'
complete -c coinop -n '__coinop_is \'audit export\'' -l from -x -d 'entries at or after: RFC 3339, a date, now, or back from now such as 24h or 7d'
complete -c coinop -n '__coinop_is \'audit export\'' -l to -x -d 'entries before this time'
complete -c coinop -n '__coinop_is \'prices\'' -a 'ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD'
complete -c coinop -n '__coinop_is \'prices\'' -l columns -x -d 'the table'
complete -c coinop -n '__coinop_is \'prices\'' -l wide -d 'every column of the table, none left out to fit the terminal'
complete -c coinop -n '__coinop_is \'prices\'' -l increment -x -a 'ONE_MINUTE FIVE_MINUTES FIFTEEN_MINUTES THIRTY_MINUTES ONE_HOUR TWO_HOURS TWELVE_HOURS ONE_DAY ONE_WEEK TWO_WEEKS FOUR_WEEKS' -d 'time step: ONE_MINUTE … FOUR_WEEKS'
complete -c coinop -n '__coinop_is \'prices\'' -l max-points -x -d 'at most this many points, step inferred'
complete -c coinop -n '__coinop_is \'prices\'' -l from -x -d 'range start: RFC 3339, a date'
complete -c coinop -n '__coinop_is \'prices\'' -l to -x -d 'range end: RFC 3339, a date'
complete -c coinop -n '__coinop_is \'prices\'' -l limit -x -d 'points per page'
complete -c coinop -n '__coinop_is \'prices\'' -l offset -x -d 'points to skip'
complete -c coinop -n '__coinop_is \'prices\'' -l all -d 'every page'
complete -c coinop -n '__coinop_is \'markets\'' -l columns -x -d 'the table'
complete -c coinop -n '__coinop_is \'markets\'' -l wide -d 'every column of the table, none left out to fit the terminal'
complete -c coinop -n '__coinop_is \'markets\'' -l refresh -d 'fetch the service\'s list again'
complete -c coinop -n '__coinop_is \'ticker\'' -a 'ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD'
complete -c coinop -n '__coinop_is \'book\'' -a 'ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD'
complete -c coinop -n '__coinop_is \'book\'' -l depth -x -d 'price levels per side'
complete -c coinop -n '__coinop_is \'trades\'' -a 'ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD'
complete -c coinop -n '__coinop_is \'trades\'' -l columns -x -d 'the table'
complete -c coinop -n '__coinop_is \'trades\'' -l wide -d 'every column of the table, none left out to fit the terminal'
complete -c coinop -n '__coinop_is \'trades\'' -l limit -x -d 'trades to show'
complete -c coinop -n '__coinop_is \'api\'' -a 'GET POST PUT PATCH DELETE'
complete -c coinop -n '__coinop_is \'api\'' -s f -l field -x -d 'a query parameter'
complete -c coinop -n '__coinop_is \'api\'' -l input -r -F -d 'the JSON body from a file'
complete -c coinop -n '__coinop_is \'api\'' -l paginate -d 'follow next_page_cursor and print every item'
complete -c coinop -n '__coinop_is \'api\'' -s i -l include -d 'print the status line and headers to stderr'
complete -c coinop -n '__coinop_is \'doctor\'' -l timeout -x -d 'how long each endpoint may take to answer'
complete -c coinop -n '__coinop_is \'stream\'' -a book -d 'live order book ladder: levels per side with depth bars, spread, mid, age of the last update'
complete -c coinop -n '__coinop_is \'stream\'' -a top -d 'board of best bid and ask across markets'
complete -c coinop -n '__coinop_is \'stream\'' -a trades -d 'trade tape with running volume, VWAP and trade rate'
complete -c coinop -n '__coinop_is \'stream\'' -a heartbeat -d 'heartbeat age and latency'
complete -c coinop -n '__coinop_is \'stream\'' -s c -l channel -x -d 'channel to subscribe'
complete -c coinop -n '__coinop_is \'stream\'' -l book -d 'with -o ndjson: write the maintained book of each market_data channel every --interval instead of the messages'
complete -c coinop -n '__coinop_is \'stream\'' -l interval -x -d 'milliseconds between books with --book'
complete -c coinop -n '__coinop_is \'stream\'' -l depth -x -d 'levels per side in books written with --book'
complete -c coinop -n '__coinop_is \'stream\'' -l duration -x -d 'stop after this long: seconds, or such as 30s, 5m, 1h'
complete -c coinop -n '__coinop_is \'stream\'' -l count -x -d 'stop after this many messages'
complete -c coinop -n '__coinop_is \'stream book\'' -a 'ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD'
complete -c coinop -n '__coinop_is \'stream book\'' -s c -l channel -x -d 'channel to subscribe'
complete -c coinop -n '__coinop_is \'stream book\'' -l book -d 'with -o ndjson: write the maintained book of each market_data channel every --interval instead of the messages'
complete -c coinop -n '__coinop_is \'stream book\'' -l interval -x -d 'milliseconds between books with --book'
complete -c coinop -n '__coinop_is \'stream book\'' -l depth -x -d 'levels per side in books written with --book'
complete -c coinop -n '__coinop_is \'stream book\'' -l duration -x -d 'stop after this long: seconds, or such as 30s, 5m, 1h'
complete -c coinop -n '__coinop_is \'stream book\'' -l count -x -d 'stop after this many messages'
complete -c coinop -n '__coinop_is \'stream top\'' -a 'ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD'
complete -c coinop -n '__coinop_is \'stream top\'' -s c -l channel -x -d 'channel to subscribe'
complete -c coinop -n '__coinop_is \'stream top\'' -l book -d 'with -o ndjson: write the maintained book of each market_data channel every --interval instead of the messages'
complete -c coinop -n '__coinop_is \'stream top\'' -l interval -x -d 'milliseconds between books with --book'
complete -c coinop -n '__coinop_is \'stream top\'' -l depth -x -d 'levels per side in books written with --book'
complete -c coinop -n '__coinop_is \'stream top\'' -l duration -x -d 'stop after this long: seconds, or such as 30s, 5m, 1h'
complete -c coinop -n '__coinop_is \'stream top\'' -l count -x -d 'stop after this many messages'
complete -c coinop -n '__coinop_is \'stream trades\'' -a 'ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD'
complete -c coinop -n '__coinop_is \'stream trades\'' -s c -l channel -x -d 'channel to subscribe'
complete -c coinop -n '__coinop_is \'stream trades\'' -l book -d 'with -o ndjson: write the maintained book of each market_data channel every --interval instead of the messages'
complete -c coinop -n '__coinop_is \'stream trades\'' -l interval -x -d 'milliseconds between books with --book'
complete -c coinop -n '__coinop_is \'stream trades\'' -l depth -x -d 'levels per side in books written with --book'
complete -c coinop -n '__coinop_is \'stream trades\'' -l duration -x -d 'stop after this long: seconds, or such as 30s, 5m, 1h'
complete -c coinop -n '__coinop_is \'stream trades\'' -l count -x -d 'stop after this many messages'
complete -c coinop -n '__coinop_is \'stream heartbeat\'' -s c -l channel -x -d 'channel to subscribe'
complete -c coinop -n '__coinop_is \'stream heartbeat\'' -l book -d 'with -o ndjson: write the maintained book of each market_data channel every --interval instead of the messages'
complete -c coinop -n '__coinop_is \'stream heartbeat\'' -l interval -x -d 'milliseconds between books with --book'
complete -c coinop -n '__coinop_is \'stream heartbeat\'' -l depth -x -d 'levels per side in books written with --book'
complete -c coinop -n '__coinop_is \'stream heartbeat\'' -l duration -x -d 'stop after this long: seconds, or such as 30s, 5m, 1h'
complete -c coinop -n '__coinop_is \'stream heartbeat\'' -l count -x -d 'stop after this many messages'
complete -c coinop -n '__coinop_is \'local\'' -a start -d 'run the local service until Ctrl-C'
complete -c coinop -n '__coinop_is \'local\'' -a deposit -d 'simulate crypto arriving at a deposit address: a PENDING CRYPTO_DEPOSIT, credited once the service confirms it'
complete -c coinop -n '__coinop_is \'local start\'' -l port -x -d 'port'
complete -c coinop -n '__coinop_is \'local start\'' -l host -x -d 'address to listen on'
complete -c coinop -n '__coinop_is \'local start\'' -l db -r -F -d 'database file'
complete -c coinop -n '__coinop_is \'local start\'' -l memory -d 'keep state in memory only'
complete -c coinop -n '__coinop_is \'local start\'' -l seed -x -d 'seed of prices and faults'
complete -c coinop -n '__coinop_is \'local start\'' -l no-rate-limits -d 'answer without the hosted service\'s rate limits'
complete -c coinop -n '__coinop_is \'local deposit\'' -l address -x -d 'the deposit address the money arrives at'
complete -c coinop -n '__coinop_is \'local deposit\'' -l ref-id -x -d 'or the ref_id of that deposit address'
complete -c coinop -n '__coinop_is \'local deposit\'' -l amount -x -d 'amount of the asset'
complete -c coinop -n '__coinop_is \'local deposit\'' -l asset -x -a 'BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB' -d 'asset'
complete -c coinop -n '__coinop_is \'completion\'' -a 'bash zsh fish'
