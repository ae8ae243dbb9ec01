// coinop gateway: a server that holds a context's credentials and serves operators the same API, with the gate
// enforced inside it (options.ts checks the flags, run.ts does the work, src/gateway is the server and its store).
import type { Command } from 'commander';
import { examples } from '../../cli/help.js';
import type { Invocation } from '../../cli/invocation.js';
import { choiceOption, type RawFlags } from '../../cli/options.js';
import { ROLES } from '../../gateway/operators.js';

const STORE_HELP = 'the store: a postgres:// URL, or a SQLite file (default: <data dir>/gateway/gateway.db)';

export function register(program: Command, ctx: Invocation): void {
  const gateway = examples(
    program
      .command('gateway')
      .description(
        "a team's boundary: holds a context's credentials, enforces the policy, approvals and audit for every operator",
      ),
    [
      'coinop gateway init',
      'coinop gateway operators add ivy --role initiator',
      'coinop gateway start --upstream local --port 7358',
    ],
  );
  const opts = (raw: RawFlags) => storeOptions(ctx, raw);
  examples(
    gateway
      .command('init')
      .description('create the store and an admin operator (its secret shown once)')
      .option('--store <url>', STORE_HELP)
      .action(async (raw: RawFlags) => (await run()).init(ctx, await opts(raw))),
    ['coinop gateway init', 'coinop gateway init --store postgres://gw@db.internal/coinop -o json'],
  );
  examples(
    gateway
      .command('start')
      .description("serve operators until Ctrl-C, holding the upstream context's credentials")
      .option('--upstream <context>', 'the context whose credentials the gateway holds (any environment)')
      .option('--store <url>', STORE_HELP)
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option('--port <port>', 'port (0 = any free port)', '7358')
      .option('--tls-cert <file>', 'serve https with this certificate (PEM)')
      .option('--tls-key <file>', "the certificate's private key (PEM)")
      .option('--rate <n>', "each operator's requests per second (a burst of twice as many)", '50')
      .option('--approval-ttl <minutes>', 'how long a held request waits for its approvals', '1440')
      .action(async (raw: RawFlags) => {
        const { parseStartOptions } = await import('./options.js');
        await (await run()).start(ctx, parseStartOptions(raw, ctx.settings.dataDir));
      }),
    ['coinop gateway start --upstream production --store postgres://gw@db/coinop --tls-cert gw.pem --tls-key gw.key'],
  );
  registerOperators(gateway, ctx);
  registerPolicy(gateway, ctx);
}

const storeOptions = async (ctx: Invocation, raw: RawFlags) =>
  (await import('./options.js')).parseStoreOptions(raw, ctx.settings.dataDir);
const run = () => import('./run.js');

function registerOperators(gateway: Command, ctx: Invocation): void {
  const opts = (raw: RawFlags) => storeOptions(ctx, raw);
  const operators = examples(gateway.command('operators').description("the gateway's operators and their roles"), [
    'coinop gateway operators add ivy --role initiator',
    'coinop gateway operators list',
  ]);
  examples(
    operators
      .command('add <name>')
      .description('add an operator (client id and secret shown once)')
      .addOption(choiceOption('--role <role>', 'viewer reads; initiator sends; approver approves; admin all', ROLES))
      .option('--store <url>', STORE_HELP)
      .action(async (name: string, raw: RawFlags) => {
        const { operatorName, roleFlag } = await import('./options.js');
        await (await run()).addOperator(ctx, await opts(raw), operatorName(name), roleFlag(raw.role as string));
      }),
    ['coinop gateway operators add ivy --role initiator', 'coinop gateway operators add ana --role approver -o json'],
  );
  examples(
    operators
      .command('list')
      .description('every operator, their role and whether they are disabled')
      .option('--store <url>', STORE_HELP)
      .action(async (raw: RawFlags) => (await run()).listOperators(ctx, await opts(raw))),
    ['coinop gateway operators list', 'coinop gateway operators list -o json'],
  );
  for (const [verb, disabled, what] of [
    ['disable', true, 'disable an operator: their tokens stop working at once'],
    ['enable', false, 'enable a disabled operator again'],
  ] as const)
    examples(
      operators
        .command(`${verb} <name>`)
        .description(what)
        .option('--store <url>', STORE_HELP)
        .action(async (name: string, raw: RawFlags) => {
          const { operatorName } = await import('./options.js');
          await (await run()).setDisabled(ctx, await opts(raw), operatorName(name), disabled);
        }),
      [`coinop gateway operators ${verb} ivy`],
    );
}

function registerPolicy(gateway: Command, ctx: Invocation): void {
  const opts = (raw: RawFlags) => storeOptions(ctx, raw);
  const policy = examples(
    gateway.command('policy').description("the gateway's policy, kept in its store with every version"),
    ['coinop gateway policy set team-policy.yaml', 'coinop gateway policy history'],
  );
  examples(
    policy
      .command('show')
      .description('the policy in force')
      .option('--store <url>', STORE_HELP)
      .action(async (raw: RawFlags) => (await run()).policyShow(ctx, await opts(raw))),
    ['coinop gateway policy show', 'coinop gateway policy show -o json'],
  );
  examples(
    policy
      .command('set <file>')
      .description('check a policy file and make it the next version (recorded in the audit chain)')
      .option('--store <url>', STORE_HELP)
      .action(async (file: string, raw: RawFlags) => (await run()).policySet(ctx, await opts(raw), file)),
    ['coinop gateway policy set team-policy.yaml'],
  );
  examples(
    policy
      .command('history')
      .description('every version of the policy: who set it and when')
      .option('--store <url>', STORE_HELP)
      .action(async (raw: RawFlags) => (await run()).policyHistory(ctx, await opts(raw))),
    ['coinop gateway policy history', 'coinop gateway policy history -o json'],
  );
}
