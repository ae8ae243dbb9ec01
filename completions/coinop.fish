# coinop shell completion, generated from the command tree (coinop completion SHELL). Do not edit.
complete -c coinop -f
complete -c coinop -l version
complete -c coinop -l profile
complete -c coinop -l output -x -a 'table json ndjson csv'
complete -c coinop -l json
complete -c coinop -l no-input
complete -c coinop -l no-color
complete -c coinop -l debug
complete -c coinop -l help
complete -c coinop -n '__fish_use_subcommand' -a 'login logout auth profile profiles balances withdraw fee addresses transfers transfer events destinations limits deposit-instructions sandbox prices markets ticker book trades api stream local completion'
complete -c coinop -n '__fish_seen_subcommand_from login' -l env -x -a 'local sandbox production custom'
complete -c coinop -n '__fish_seen_subcommand_from login' -l client-id
complete -c coinop -n '__fish_seen_subcommand_from login' -l client-secret-stdin
complete -c coinop -n '__fish_seen_subcommand_from login' -l scopes
complete -c coinop -n '__fish_seen_subcommand_from login' -l name
complete -c coinop -n '__fish_seen_subcommand_from login' -l profile-id
complete -c coinop -n '__fish_seen_subcommand_from login' -l base-url
complete -c coinop -n '__fish_seen_subcommand_from login' -l auth-url
complete -c coinop -n '__fish_seen_subcommand_from login' -l ws-url
complete -c coinop -n '__fish_seen_subcommand_from login' -l activate
complete -c coinop -n '__fish_seen_subcommand_from auth; and not __fish_seen_subcommand_from status' -a 'status'
complete -c coinop -n '__fish_seen_subcommand_from profile; and not __fish_seen_subcommand_from list use show' -a 'list use show'
complete -c coinop -n '__fish_seen_subcommand_from profiles; and not __fish_seen_subcommand_from list get create' -a 'list get create'
complete -c coinop -n '__fish_seen_subcommand_from list' -l id
complete -c coinop -n '__fish_seen_subcommand_from list' -l nickname
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-before
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-until
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-at
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-from
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-after
complete -c coinop -n '__fish_seen_subcommand_from list' -l limit
complete -c coinop -n '__fish_seen_subcommand_from list' -l order -x -a 'DESC ASC'
complete -c coinop -n '__fish_seen_subcommand_from list' -l cursor
complete -c coinop -n '__fish_seen_subcommand_from list' -l all
complete -c coinop -n '__fish_seen_subcommand_from get' -l include-deactivated
complete -c coinop -n '__fish_seen_subcommand_from create' -l nickname
complete -c coinop -n '__fish_seen_subcommand_from create' -l description
complete -c coinop -n '__fish_seen_subcommand_from balances' -a 'BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB USD EUR GBP BRL MXN'
complete -c coinop -n '__fish_seen_subcommand_from balances' -l profile-id
complete -c coinop -n '__fish_seen_subcommand_from balances' -l all-profiles
complete -c coinop -n '__fish_seen_subcommand_from balances' -l include-zero
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -a 'batch'
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l asset -x -a 'BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB'
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l network -x -a 'BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB'
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l address
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l to
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l amount
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l total
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l fee-id
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l quote
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l ref-id
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l profile-id
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l identity-id
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l account-id
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l balance-asset
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l memo
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l meta
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l beneficiary
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l dry-run
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l yes
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l wait
complete -c coinop -n '__fish_seen_subcommand_from withdraw; and not __fish_seen_subcommand_from batch' -l wait-timeout
complete -c coinop -n '__fish_seen_subcommand_from batch' -F
complete -c coinop -n '__fish_seen_subcommand_from batch' -l format -x -a 'csv jsonl json'
complete -c coinop -n '__fish_seen_subcommand_from batch' -l profile-id
complete -c coinop -n '__fish_seen_subcommand_from batch' -l dry-run
complete -c coinop -n '__fish_seen_subcommand_from batch' -l yes
complete -c coinop -n '__fish_seen_subcommand_from batch' -l resume
complete -c coinop -n '__fish_seen_subcommand_from batch' -l retry-failed
complete -c coinop -n '__fish_seen_subcommand_from batch' -l skip-invalid
complete -c coinop -n '__fish_seen_subcommand_from batch' -l wait
complete -c coinop -n '__fish_seen_subcommand_from batch' -l wait-timeout
complete -c coinop -n '__fish_seen_subcommand_from batch' -l concurrency
complete -c coinop -n '__fish_seen_subcommand_from batch' -l rate
complete -c coinop -n '__fish_seen_subcommand_from batch' -l journal -r -F
complete -c coinop -n '__fish_seen_subcommand_from batch' -l allow-repeat
complete -c coinop -n '__fish_seen_subcommand_from batch' -l allow-partial
complete -c coinop -n '__fish_seen_subcommand_from fee; and not __fish_seen_subcommand_from quote' -a 'quote'
complete -c coinop -n '__fish_seen_subcommand_from quote' -l asset -x -a 'BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB'
complete -c coinop -n '__fish_seen_subcommand_from quote' -l network -x -a 'BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB'
complete -c coinop -n '__fish_seen_subcommand_from quote' -l address
complete -c coinop -n '__fish_seen_subcommand_from quote' -l amount
complete -c coinop -n '__fish_seen_subcommand_from quote' -l total
complete -c coinop -n '__fish_seen_subcommand_from addresses; and not __fish_seen_subcommand_from list create' -a 'list create'
complete -c coinop -n '__fish_seen_subcommand_from list' -l profile-id
complete -c coinop -n '__fish_seen_subcommand_from list' -l identity-id
complete -c coinop -n '__fish_seen_subcommand_from list' -l account-id
complete -c coinop -n '__fish_seen_subcommand_from list' -l id
complete -c coinop -n '__fish_seen_subcommand_from list' -l ref-id
complete -c coinop -n '__fish_seen_subcommand_from list' -l network -x -a 'BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB'
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-before
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-until
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-at
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-from
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-after
complete -c coinop -n '__fish_seen_subcommand_from list' -l limit
complete -c coinop -n '__fish_seen_subcommand_from list' -l order -x -a 'DESC ASC'
complete -c coinop -n '__fish_seen_subcommand_from list' -l order-by -x -a 'CREATED_AT'
complete -c coinop -n '__fish_seen_subcommand_from list' -l cursor
complete -c coinop -n '__fish_seen_subcommand_from list' -l all
complete -c coinop -n '__fish_seen_subcommand_from create' -l network -x -a 'BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB'
complete -c coinop -n '__fish_seen_subcommand_from create' -l profile-id
complete -c coinop -n '__fish_seen_subcommand_from create' -l identity-id
complete -c coinop -n '__fish_seen_subcommand_from create' -l account-id
complete -c coinop -n '__fish_seen_subcommand_from create' -l ref-id
complete -c coinop -n '__fish_seen_subcommand_from create' -l conversion -x -a 'NO_CONVERSION USD'
complete -c coinop -n '__fish_seen_subcommand_from create' -l meta
complete -c coinop -n '__fish_seen_subcommand_from transfers; and not __fish_seen_subcommand_from list get watch' -a 'list get watch'
complete -c coinop -n '__fish_seen_subcommand_from list' -l id
complete -c coinop -n '__fish_seen_subcommand_from list' -l ref-id
complete -c coinop -n '__fish_seen_subcommand_from list' -l profile-id
complete -c coinop -n '__fish_seen_subcommand_from list' -l identity-id
complete -c coinop -n '__fish_seen_subcommand_from list' -l account-id
complete -c coinop -n '__fish_seen_subcommand_from list' -l type -x -a 'INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PLATFORM_TRANSFER_DEBIT PLATFORM_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT PAXOS_TRANSFER_DEBIT PAXOS_TRANSFER_CREDIT'
complete -c coinop -n '__fish_seen_subcommand_from list' -l status -x -a 'PENDING COMPLETED FAILED'
complete -c coinop -n '__fish_seen_subcommand_from list' -l secondary-status -x -a 'TRAVEL_RULE_INFO_REQUESTED TRAVEL_RULE_REJECTED CUSTOMER_REJECTED PENDING_CUSTOMER_APPROVAL'
complete -c coinop -n '__fish_seen_subcommand_from list' -l tx-hash
complete -c coinop -n '__fish_seen_subcommand_from list' -l group-id
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-before
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-until
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-at
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-from
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-after
complete -c coinop -n '__fish_seen_subcommand_from list' -l updated-before
complete -c coinop -n '__fish_seen_subcommand_from list' -l updated-until
complete -c coinop -n '__fish_seen_subcommand_from list' -l updated-at
complete -c coinop -n '__fish_seen_subcommand_from list' -l updated-from
complete -c coinop -n '__fish_seen_subcommand_from list' -l updated-after
complete -c coinop -n '__fish_seen_subcommand_from list' -l limit
complete -c coinop -n '__fish_seen_subcommand_from list' -l order -x -a 'DESC ASC'
complete -c coinop -n '__fish_seen_subcommand_from list' -l order-by -x -a 'CREATED_AT UPDATED_AT'
complete -c coinop -n '__fish_seen_subcommand_from list' -l cursor
complete -c coinop -n '__fish_seen_subcommand_from list' -l all
complete -c coinop -n '__fish_seen_subcommand_from get' -l ref-id
complete -c coinop -n '__fish_seen_subcommand_from watch' -l timeout
complete -c coinop -n '__fish_seen_subcommand_from transfer; and not __fish_seen_subcommand_from internal' -a 'internal'
complete -c coinop -n '__fish_seen_subcommand_from internal' -l from-profile-id
complete -c coinop -n '__fish_seen_subcommand_from internal' -l to-profile-id
complete -c coinop -n '__fish_seen_subcommand_from internal' -l asset -x -a 'BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB'
complete -c coinop -n '__fish_seen_subcommand_from internal' -l amount
complete -c coinop -n '__fish_seen_subcommand_from internal' -l ref-id
complete -c coinop -n '__fish_seen_subcommand_from internal' -l meta
complete -c coinop -n '__fish_seen_subcommand_from internal' -l recipient-meta
complete -c coinop -n '__fish_seen_subcommand_from internal' -l dry-run
complete -c coinop -n '__fish_seen_subcommand_from internal' -l yes
complete -c coinop -n '__fish_seen_subcommand_from internal' -l wait
complete -c coinop -n '__fish_seen_subcommand_from internal' -l wait-timeout
complete -c coinop -n '__fish_seen_subcommand_from events; and not __fish_seen_subcommand_from list get watch listen' -a 'list get watch listen'
complete -c coinop -n '__fish_seen_subcommand_from list' -l type -x -a 'INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PLATFORM_TRANSFER_DEBIT PLATFORM_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT PAXOS_TRANSFER_DEBIT PAXOS_TRANSFER_CREDIT'
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-before
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-until
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-at
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-from
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-after
complete -c coinop -n '__fish_seen_subcommand_from list' -l limit
complete -c coinop -n '__fish_seen_subcommand_from list' -l order -x -a 'DESC ASC'
complete -c coinop -n '__fish_seen_subcommand_from list' -l cursor
complete -c coinop -n '__fish_seen_subcommand_from list' -l all
complete -c coinop -n '__fish_seen_subcommand_from watch' -l type -x -a 'INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PLATFORM_TRANSFER_DEBIT PLATFORM_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT PAXOS_TRANSFER_DEBIT PAXOS_TRANSFER_CREDIT'
complete -c coinop -n '__fish_seen_subcommand_from watch' -l since
complete -c coinop -n '__fish_seen_subcommand_from watch' -l count
complete -c coinop -n '__fish_seen_subcommand_from listen' -l forward-to
complete -c coinop -n '__fish_seen_subcommand_from listen' -l concurrency
complete -c coinop -n '__fish_seen_subcommand_from listen' -l timeout
complete -c coinop -n '__fish_seen_subcommand_from listen' -l print-secret
complete -c coinop -n '__fish_seen_subcommand_from listen' -l type -x -a 'INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PLATFORM_TRANSFER_DEBIT PLATFORM_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT PAXOS_TRANSFER_DEBIT PAXOS_TRANSFER_CREDIT'
complete -c coinop -n '__fish_seen_subcommand_from listen' -l since
complete -c coinop -n '__fish_seen_subcommand_from listen' -l count
complete -c coinop -n '__fish_seen_subcommand_from destinations; and not __fish_seen_subcommand_from list put' -a 'list put'
complete -c coinop -n '__fish_seen_subcommand_from list' -l nickname
complete -c coinop -n '__fish_seen_subcommand_from list' -l network -x -a 'BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB'
complete -c coinop -n '__fish_seen_subcommand_from list' -l address
complete -c coinop -n '__fish_seen_subcommand_from list' -l id
complete -c coinop -n '__fish_seen_subcommand_from list' -l identity-id
complete -c coinop -n '__fish_seen_subcommand_from list' -l bookmarked
complete -c coinop -n '__fish_seen_subcommand_from list' -l not-bookmarked
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-before
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-until
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-at
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-from
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-after
complete -c coinop -n '__fish_seen_subcommand_from list' -l limit
complete -c coinop -n '__fish_seen_subcommand_from list' -l order -x -a 'DESC ASC'
complete -c coinop -n '__fish_seen_subcommand_from list' -l order-by -x -a 'CREATED_AT'
complete -c coinop -n '__fish_seen_subcommand_from list' -l cursor
complete -c coinop -n '__fish_seen_subcommand_from list' -l all
complete -c coinop -n '__fish_seen_subcommand_from put' -l network -x -a 'BITCOIN ETHEREUM BITCOIN_CASH LITECOIN SOLANA POLYGON_POS BASE ARBITRUM_ONE STELLAR INK XLAYER AVALANCHE DOGECOIN SUI ROBINHOOD BNB'
complete -c coinop -n '__fish_seen_subcommand_from put' -l address
complete -c coinop -n '__fish_seen_subcommand_from put' -l id
complete -c coinop -n '__fish_seen_subcommand_from put' -l nickname
complete -c coinop -n '__fish_seen_subcommand_from put' -l bookmark
complete -c coinop -n '__fish_seen_subcommand_from put' -l no-bookmark
complete -c coinop -n '__fish_seen_subcommand_from put' -l identity-id
complete -c coinop -n '__fish_seen_subcommand_from put' -l travel-rule
complete -c coinop -n '__fish_seen_subcommand_from limits' -l type -x -a 'INTERNAL_TRANSFER_DEBIT INTERNAL_TRANSFER_CREDIT CRYPTO_DEPOSIT CRYPTO_WITHDRAWAL WIRE_DEPOSIT WIRE_WITHDRAWAL SEN_DEPOSIT SEN_WITHDRAWAL BANK_DEPOSIT BANK_WITHDRAWAL PAXOS_TRANSFER_DEBIT PAXOS_TRANSFER_CREDIT SIGNET_DEPOSIT SIGNET_WITHDRAWAL CBIT_WITHDRAWAL CBIT_DEPOSIT CUBIX_DEPOSIT CUBIX_WITHDRAWAL RTP_DEPOSIT'
complete -c coinop -n '__fish_seen_subcommand_from deposit-instructions; and not __fish_seen_subcommand_from create list get' -a 'create list get'
complete -c coinop -n '__fish_seen_subcommand_from create' -l network -x -a 'WIRE DBS_ACT CUBIX SCB RTP'
complete -c coinop -n '__fish_seen_subcommand_from create' -l routing-type -x -a 'ABA SWIFT'
complete -c coinop -n '__fish_seen_subcommand_from create' -l profile-id
complete -c coinop -n '__fish_seen_subcommand_from create' -l identity-id
complete -c coinop -n '__fish_seen_subcommand_from create' -l account-id
complete -c coinop -n '__fish_seen_subcommand_from create' -l ref-id
complete -c coinop -n '__fish_seen_subcommand_from create' -l meta
complete -c coinop -n '__fish_seen_subcommand_from list' -l id
complete -c coinop -n '__fish_seen_subcommand_from list' -l ref-id
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-before
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-until
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-at
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-from
complete -c coinop -n '__fish_seen_subcommand_from list' -l created-after
complete -c coinop -n '__fish_seen_subcommand_from list' -l limit
complete -c coinop -n '__fish_seen_subcommand_from list' -l order -x -a 'DESC ASC'
complete -c coinop -n '__fish_seen_subcommand_from list' -l cursor
complete -c coinop -n '__fish_seen_subcommand_from list' -l all
complete -c coinop -n '__fish_seen_subcommand_from sandbox; and not __fish_seen_subcommand_from deposit' -a 'deposit'
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l amount
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l asset -x -a 'BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB'
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l memo-id
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l instructions
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l file -r -F
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l account-number
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l owner-country
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l owner-address
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l owner-address2
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l owner-city
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l owner-province
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l owner-zip
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l routing-type
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l routing-number
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l bank-name
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l bank-country
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l bank-address
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l bank-address2
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l bank-city
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l bank-province
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l bank-zip
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l institution
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l owner-first-name
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l owner-last-name
complete -c coinop -n '__fish_seen_subcommand_from prices' -a 'ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD'
complete -c coinop -n '__fish_seen_subcommand_from prices' -l increment -x -a 'ONE_MINUTE FIVE_MINUTES FIFTEEN_MINUTES THIRTY_MINUTES ONE_HOUR TWO_HOURS TWELVE_HOURS ONE_DAY ONE_WEEK TWO_WEEKS FOUR_WEEKS'
complete -c coinop -n '__fish_seen_subcommand_from prices' -l max-points
complete -c coinop -n '__fish_seen_subcommand_from prices' -l from
complete -c coinop -n '__fish_seen_subcommand_from prices' -l to
complete -c coinop -n '__fish_seen_subcommand_from prices' -l limit
complete -c coinop -n '__fish_seen_subcommand_from prices' -l offset
complete -c coinop -n '__fish_seen_subcommand_from prices' -l all
complete -c coinop -n '__fish_seen_subcommand_from markets' -l refresh
complete -c coinop -n '__fish_seen_subcommand_from ticker' -a 'ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD'
complete -c coinop -n '__fish_seen_subcommand_from book' -a 'ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD'
complete -c coinop -n '__fish_seen_subcommand_from book' -l depth
complete -c coinop -n '__fish_seen_subcommand_from trades' -a 'ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD'
complete -c coinop -n '__fish_seen_subcommand_from trades' -l limit
complete -c coinop -n '__fish_seen_subcommand_from api' -a 'GET POST PUT PATCH DELETE'
complete -c coinop -n '__fish_seen_subcommand_from api' -l field
complete -c coinop -n '__fish_seen_subcommand_from api' -l input -r -F
complete -c coinop -n '__fish_seen_subcommand_from api' -l paginate
complete -c coinop -n '__fish_seen_subcommand_from api' -l include
complete -c coinop -n '__fish_seen_subcommand_from stream; and not __fish_seen_subcommand_from book top trades heartbeat' -a 'book top trades heartbeat'
complete -c coinop -n '__fish_seen_subcommand_from stream; and not __fish_seen_subcommand_from book top trades heartbeat' -l channel
complete -c coinop -n '__fish_seen_subcommand_from stream; and not __fish_seen_subcommand_from book top trades heartbeat' -l book
complete -c coinop -n '__fish_seen_subcommand_from stream; and not __fish_seen_subcommand_from book top trades heartbeat' -l interval
complete -c coinop -n '__fish_seen_subcommand_from stream; and not __fish_seen_subcommand_from book top trades heartbeat' -l depth
complete -c coinop -n '__fish_seen_subcommand_from stream; and not __fish_seen_subcommand_from book top trades heartbeat' -l duration
complete -c coinop -n '__fish_seen_subcommand_from stream; and not __fish_seen_subcommand_from book top trades heartbeat' -l count
complete -c coinop -n '__fish_seen_subcommand_from book' -a 'ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD'
complete -c coinop -n '__fish_seen_subcommand_from book' -l channel
complete -c coinop -n '__fish_seen_subcommand_from book' -l book
complete -c coinop -n '__fish_seen_subcommand_from book' -l interval
complete -c coinop -n '__fish_seen_subcommand_from book' -l depth
complete -c coinop -n '__fish_seen_subcommand_from book' -l duration
complete -c coinop -n '__fish_seen_subcommand_from book' -l count
complete -c coinop -n '__fish_seen_subcommand_from top' -a 'ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD'
complete -c coinop -n '__fish_seen_subcommand_from top' -l channel
complete -c coinop -n '__fish_seen_subcommand_from top' -l book
complete -c coinop -n '__fish_seen_subcommand_from top' -l interval
complete -c coinop -n '__fish_seen_subcommand_from top' -l depth
complete -c coinop -n '__fish_seen_subcommand_from top' -l duration
complete -c coinop -n '__fish_seen_subcommand_from top' -l count
complete -c coinop -n '__fish_seen_subcommand_from trades' -a 'ETHEUR ETHUSD BTCEUR BTCUSD PAXGUSD BCHUSD LTCUSD ETHGBP BTCGBP LTCGBP BCHGBP USDPUSD ETHBRL BTCBRL LTCBRL BCHBRL USDPGBP USDPBRL LINKUSD MATICUSD AAVEUSD UNIUSD AAVEMXN BCHMXN BTCMXN ETHMXN LTCMXN USDPMXN AAVEEUR BCHEUR LTCEUR LINKEUR MATICEUR PAXGEUR SOLEUR USDPEUR UNIEUR PYUSDEUR PYUSDGBP PEPEUSD TRUMPUSD SHIBUSD ARBUSD BONKUSD ENAUSD MNTUSD ONDOUSD PENGUUSD QNTUSD RENDERUSD SKYUSD WIFUSD WLDUSD DOGEUSD AVAXUSD SUIUSD POLUSD XLMUSD BNBUSD'
complete -c coinop -n '__fish_seen_subcommand_from trades' -l channel
complete -c coinop -n '__fish_seen_subcommand_from trades' -l book
complete -c coinop -n '__fish_seen_subcommand_from trades' -l interval
complete -c coinop -n '__fish_seen_subcommand_from trades' -l depth
complete -c coinop -n '__fish_seen_subcommand_from trades' -l duration
complete -c coinop -n '__fish_seen_subcommand_from trades' -l count
complete -c coinop -n '__fish_seen_subcommand_from heartbeat' -l channel
complete -c coinop -n '__fish_seen_subcommand_from heartbeat' -l book
complete -c coinop -n '__fish_seen_subcommand_from heartbeat' -l interval
complete -c coinop -n '__fish_seen_subcommand_from heartbeat' -l depth
complete -c coinop -n '__fish_seen_subcommand_from heartbeat' -l duration
complete -c coinop -n '__fish_seen_subcommand_from heartbeat' -l count
complete -c coinop -n '__fish_seen_subcommand_from local; and not __fish_seen_subcommand_from start deposit' -a 'start deposit'
complete -c coinop -n '__fish_seen_subcommand_from start' -l port
complete -c coinop -n '__fish_seen_subcommand_from start' -l host
complete -c coinop -n '__fish_seen_subcommand_from start' -l db -r -F
complete -c coinop -n '__fish_seen_subcommand_from start' -l memory
complete -c coinop -n '__fish_seen_subcommand_from start' -l seed
complete -c coinop -n '__fish_seen_subcommand_from start' -l no-rate-limits
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l address
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l ref-id
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l amount
complete -c coinop -n '__fish_seen_subcommand_from deposit' -l asset -x -a 'BTC ETH BCH LTC SOL PAXG LINK AAVE UNI MATIC USDP PYUSD PEPE TRUMP SHIB ARB BONK ENA MNT ONDO PENGU QNT RENDER SKY WIF WLD DOGE AVAX SUI POL XLM BNB'
complete -c coinop -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'
