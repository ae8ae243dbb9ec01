// coinop gateway: a server that holds a context's credentials and serves operators the same API, with the gate
// enforced inside it (options.ts checks the flags, run.ts does the work, src/gateway is the server and its store).
import type { Command } from 'commander';
import { examples } from '../../cli/help.js';
import type { Invocation } from '../../cli/invocation.js';
import type { RawFlags } from '../../cli/options.js';
import { ports } from '../../cli/ports.js';
import {
  GATEWAY_START_FLAG_TABLE,
  OPERATORS_ADD_FLAG_TABLE,
  POLICY_SET_FLAG_TABLE,
  STORE_FLAG_TABLE,
} from './flags.js';

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
    STORE_FLAG_TABLE.declare(gateway.command('init'))
      .description('create the store and an admin operator (its secret shown once)')
      .action(async (raw: RawFlags) => (await run()).init(ports(ctx), await opts(raw))),
    ['coinop gateway init', 'coinop gateway init --store postgres://gw@db.internal/coinop -o json'],
  );
  examples(
    GATEWAY_START_FLAG_TABLE.declare(gateway.command('start'))
      .description("serve operators until Ctrl-C, holding the upstream context's credentials")
      .action(async (raw: RawFlags) => {
        const { parseStartOptions } = await import('./options.js');
        await (await run()).start(ports(ctx), parseStartOptions(raw, ctx.settings.dataDir));
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
    OPERATORS_ADD_FLAG_TABLE.declare(operators.command('add <name>'))
      .description('add an operator (client id and secret shown once)')
      .action(async (name: string, raw: RawFlags) => {
        const { operatorName, roleFlag } = await import('./options.js');
        await (await run()).addOperator(
          ports(ctx),
          await opts(raw),
          operatorName(name),
          roleFlag(OPERATORS_ADD_FLAG_TABLE.read(raw).role),
        );
      }),
    ['coinop gateway operators add ivy --role initiator', 'coinop gateway operators add ana --role approver -o json'],
  );
  examples(
    STORE_FLAG_TABLE.declare(operators.command('list'))
      .description('every operator, their role and whether they are disabled')
      .action(async (raw: RawFlags) => (await run()).listOperators(ports(ctx), await opts(raw))),
    ['coinop gateway operators list', 'coinop gateway operators list -o json'],
  );
  for (const [verb, disabled, what] of [
    ['disable', true, 'disable an operator: their tokens stop working at once'],
    ['enable', false, 'enable a disabled operator again'],
  ] as const)
    examples(
      STORE_FLAG_TABLE.declare(operators.command(`${verb} <name>`))
        .description(what)
        .action(async (name: string, raw: RawFlags) => {
          const { operatorName } = await import('./options.js');
          await (await run()).setDisabled(ports(ctx), await opts(raw), operatorName(name), disabled);
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
    STORE_FLAG_TABLE.declare(policy.command('show'))
      .description('the policy in force')
      .action(async (raw: RawFlags) => (await run()).policyShow(ports(ctx), await opts(raw))),
    ['coinop gateway policy show', 'coinop gateway policy show -o json'],
  );
  examples(
    POLICY_SET_FLAG_TABLE.declare(policy.command('set <file>'))
      .description(
        'check a policy file and make it the next version, or hold it for approvals when the policy in force has policy_changes (recorded in the audit chain)',
      )
      .action(async (file: string, raw: RawFlags) => {
        const { parsePolicySetOptions } = await import('./options.js');
        await (await run()).policySet(ports(ctx), parsePolicySetOptions(raw, ctx.settings.dataDir), file);
      }),
    ['coinop gateway policy set team-policy.yaml', 'coinop gateway policy set team-policy.yaml --approval-ttl 120'],
  );
  examples(
    STORE_FLAG_TABLE.declare(policy.command('history'))
      .description('every version of the policy: who set it and when')
      .action(async (raw: RawFlags) => (await run()).policyHistory(ports(ctx), await opts(raw))),
    ['coinop gateway policy history', 'coinop gateway policy history -o json'],
  );
}
