// The starter file `coinop policy init` writes: every rule explained and commented out, so it loads as a policy with
// no rules until the team uncomments what it wants.
export function starterPolicy(context: string): string {
  return `# coinop policy for context "${context}" (written by coinop policy init).
# coinop checks it before anything that moves money: withdraw, withdraw batch and transfer internal. A run that
# breaks a rule is refused before anything is sent (exit 8, naming the rule), and no flag skips it: the policy
# changes only by changing this file. Every rule is optional: uncomment the ones your team wants, then run
#   coinop policy check      (validates this file: each problem with its line)
#   coinop policy show       (what the policy says)
# Amounts are decimals per asset; "*" stands for any asset not named.
version: 1

# Where withdrawals may go: nicknames of the service's address book (coinop destinations list) and addresses,
# or bookmarked_only for the bookmarked addresses of the book. coinop destinations put refuses to give a nickname
# listed here to an address that did not hold it; a nickname pinned to its address allows that address only,
# whatever the address book says.
# destinations: bookmarked_only
# destinations: [treasury, cold-storage, 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2]
# destinations:
#   - cold-storage
#   - nickname: treasury
#     address: bc1qaf3e3jk48cp6fzyyyssgxzshvqnsg8z356z7xm
#     network: BITCOIN

# Crypto withdrawals only to addresses the service verified as the company's own (coinop addresses verify): an
# APPROVED address verification of the address on the withdrawal's network.
# verified_only: true

# The networks withdrawals may use, and the assets withdrawals and internal transfers may move.
# networks: [BITCOIN, ETHEREUM]
# assets: [BTC, ETH, USDP]

# The most one withdrawal may send, per asset.
# max_per_withdrawal:
#   BTC: 0.5
#   ETH: 10

# The most the withdrawals of any 24 hours may send, per asset: counted from the service's own transfers (so
# every machine's count), plus what the run is about to send.
# max_per_24h:
#   BTC: 2
#   "*": 100000

# When sending is allowed: windows of the day in a time zone (one may run over midnight, such as 22:00-06:00).
# hours: "09:00-18:00 Europe/Zurich"

# Four-eyes approvals: how many approvers must sign a run (coinop approve FILE), with which keys (coinop approve
# --show-key prints yours), in which environments (production if not said), and above which total per asset
# (without "above", every run needs them).
# approvals:
#   required: 2
#   keys:
#     - name: alice
#       key: ed25519:PASTE_ALICES_KEY_HERE
#     - name: bob
#       key: ed25519:PASTE_BOBS_KEY_HERE
#   environments: [production]
#   above:
#     BTC: 1
#     "*": 10000

# At a coinop gateway only: a new version of this policy (coinop gateway policy set) waits for this many approvals
# by distinct keys (these, else the approvals keys above) before it takes effect. A machine's own file ignores it.
# policy_changes:
#   required: 2
`;
}
