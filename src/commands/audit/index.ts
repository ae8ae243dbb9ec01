// coinop audit list|verify|export|path: declarations; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { AUDIT_EXPORT_FLAG_TABLE, AUDIT_LIST_FLAG_TABLE, AUDIT_VERIFY_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  const audit = examples(
    program.command('audit').description('the audit trail: every attempt to move money, hash-chained in a local log'),
    [
      'coinop audit list --limit 20',
      'coinop audit verify',
      'coinop audit export --from 2026-11-01 --to 2026-12-01 -o csv',
    ],
  );
  examples(
    AUDIT_LIST_FLAG_TABLE.declare(audit.command('list'))
      .description('entries of the audit log, oldest first: the latest 100 that match, or --all')
      .action(async (raw: RawFlags) => {
        const { parseAuditListOptions } = await import('./options.js');
        const o = parseAuditListOptions(raw, ctx.now());
        await (await import('./run.js')).list(ports(ctx), o, AUDIT_LIST_FLAG_TABLE.read(raw).gateway);
      }),
    [
      'coinop audit list',
      'coinop audit list --kind withdrawal,batch_row --outcome refused,unknown',
      'coinop audit list --ref-id coinop-5e0f... -o json',
      'coinop audit list --from 7d --asset BTC --all -o ndjson',
    ],
  );
  examples(
    AUDIT_VERIFY_FLAG_TABLE.declare(audit.command('verify'))
      .description('check the hash chain: exit 0 when whole, 9 naming each edited, removed, inserted or moved line')
      .action(async (raw: RawFlags) => {
        const { parseAuditVerifyOptions } = await import('./options.js');
        const o = parseAuditVerifyOptions(raw);
        await (await import('./run.js')).verify(ports(ctx), o, AUDIT_VERIFY_FLAG_TABLE.read(raw).gateway);
      }),
    ['coinop audit verify', 'coinop audit verify -o json', 'coinop audit verify --head 1042:3f2a9c01d4e5b6a7'],
  );
  examples(
    AUDIT_EXPORT_FLAG_TABLE.declare(audit.command('export'))
      .description('every entry in a time range as flat rows for accountants (CSV unless -o json or ndjson)')
      .action(async (raw: RawFlags) => {
        const { parseAuditExportOptions } = await import('./options.js');
        const o = parseAuditExportOptions(raw, ctx.globals.json ? 'json' : ctx.globals.output, ctx.now());
        await (await import('./run.js')).exportLog(ports(ctx), o, AUDIT_EXPORT_FLAG_TABLE.read(raw).gateway);
      }),
    [
      'coinop audit export --from 2026-11-01 --to 2026-12-01 -o csv > november.csv',
      'coinop audit export --from 30d -o ndjson',
    ],
  );
  examples(
    audit
      .command('path')
      .description('where the audit log is')
      .action(async () => (await import('./run.js')).path(ports(ctx))),
    ['coinop audit path', 'coinop audit verify && cp "$(coinop audit path)" /backup/'],
  );
}
