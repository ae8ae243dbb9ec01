// coinop audit list|verify|export|path: declarations; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import { AUDIT_KINDS, AUDIT_RESULTS } from '../../audit/entry.js';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import { collect, type RawFlags } from '../../cli/options.js';

const TIME = 'RFC 3339, a date, now, or back from now such as 24h or 7d';

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
    audit
      .command('list')
      .description('entries of the audit log, oldest first: the latest 100 that match, or --all')
      .option('--kind <kind>', `kinds (repeatable or comma separated): ${AUDIT_KINDS.join(', ')}`, collect)
      .option('--outcome <result>', `results (repeatable): ${AUDIT_RESULTS.join(', ')}`, collect)
      .option('--from <time>', `entries at or after: ${TIME}`)
      .option('--to <time>', 'entries before this time')
      .option('--ref-id <id>', 'ref_ids (repeatable or comma separated)', collect)
      .option('--asset <asset>', 'assets (repeatable or comma separated)', collect)
      .option('--limit <n>', 'the latest this many matching entries (1 to 100000, default 100)')
      .option('--all', 'every matching entry, streamed')
      .option('--gateway', "the current context's coinop gateway's chain instead of this machine's log")
      .action(async (raw: RawFlags) => {
        const { parseAuditListOptions } = await import('./options.js');
        const o = parseAuditListOptions(raw, ctx.now());
        await (await import('./run.js')).list(ports(ctx), o, raw.gateway === true);
      }),
    [
      'coinop audit list',
      'coinop audit list --kind withdrawal,batch_row --outcome refused,unknown',
      'coinop audit list --ref-id coinop-5e0f... -o json',
      'coinop audit list --from 7d --asset BTC --all -o ndjson',
    ],
  );
  examples(
    audit
      .command('verify')
      .description('check the hash chain: exit 0 when whole, 9 naming each edited, removed, inserted or moved line')
      .option('--head <seq:sha256>', 'also check the log still holds this head, noted from an earlier verify')
      .option('--gateway', "the current context's coinop gateway's chain instead of this machine's log")
      .action(async (raw: RawFlags) => {
        const { parseAuditVerifyOptions } = await import('./options.js');
        const o = parseAuditVerifyOptions(raw);
        await (await import('./run.js')).verify(ports(ctx), o, raw.gateway === true);
      }),
    ['coinop audit verify', 'coinop audit verify -o json', 'coinop audit verify --head 1042:3f2a9c01d4e5b6a7'],
  );
  examples(
    audit
      .command('export')
      .description('every entry in a time range as flat rows for accountants (CSV unless -o json or ndjson)')
      .option('--from <time>', `entries at or after: ${TIME}`)
      .option('--to <time>', 'entries before this time')
      .option('--gateway', "the current context's coinop gateway's chain instead of this machine's log")
      .action(async (raw: RawFlags) => {
        const { parseAuditExportOptions } = await import('./options.js');
        const o = parseAuditExportOptions(raw, ctx.globals.json ? 'json' : ctx.globals.output, ctx.now());
        await (await import('./run.js')).exportLog(ports(ctx), o, raw.gateway === true);
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
