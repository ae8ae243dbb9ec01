// coinop statement: a service profile's statement for a period, from its transfers and balances (src/statement),
// written as it is read back (the movements wait on disk, not in memory).
import { drained, paced } from '../../cli/drained.js';
import type { Ports } from '../../cli/ports.js';
import { commandProfile, profileLabel } from '../../cli/service-profiles.js';
import {
  STATEMENT_ASSET_COLUMNS,
  STATEMENT_MOVEMENT_COLUMNS,
  statementOf,
  statementRows,
  writeStatementDocument,
} from '../../cli/statement.js';
import type { StatementOptions } from './options.js';

export type StatementDeps = Pick<Ports, 'display' | 'service' | 'prompter'>;

export async function statement(
  { display, service, prompter: pr }: StatementDeps,
  options: StatementOptions,
): Promise<void> {
  const profile = await commandProfile({ service, prompter: pr }, options.profileId, service.context().profileId);
  const profileId = profile.id;
  const conn = await service.connect();
  const s = await statementOf(conn, profileId, options);
  const out = display.output();
  const stdout = display.io.stdout;
  try {
    switch (out.format) {
      case 'csv':
        await out.list(paced(statementRows(s), out, stdout), [{ key: 'record' }, ...STATEMENT_MOVEMENT_COLUMNS]);
        return;
      case 'table':
        out.note(
          out.p.dim(`service profile ${profileLabel(profile)} · ${s.period.from} to ${s.period.to} (end excluded)`),
        );
        out.table(s.assets, STATEMENT_ASSET_COLUMNS);
        if (!s.assets.length) out.note(out.p.dim('no balance and no movement in the period'));
        out.io.out('\n');
        await out.list(paced(s.movements(), out, stdout), STATEMENT_MOVEMENT_COLUMNS, {
          empty: 'no movements in the period',
        });
        return;
      default:
        await writeStatementDocument(profileId, s, async (text) => {
          out.io.out(text);
          await drained(out, stdout);
        });
    }
  } finally {
    s.close();
  }
}
