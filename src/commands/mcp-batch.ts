// How coinop mcp sends a batch: `coinop withdraw batch FILE --resume --yes -o json` itself, run in this process in a
// context of its own (its output captured, no terminal, nothing asked), over the server's connection. The journal,
// the guards against rows another batch paid, the report and the exit are the command's: nothing of it is written
// again. --resume makes every call of the same batch safe: a new one starts, an interrupted one goes on, a finished
// one is reported.
import { PassThrough } from 'node:stream';
import { type Invocation, type Connection, createContext } from '../cli/invocation.js';
import { makeIO } from '../cli/io.js';
import { ports } from '../cli/ports.js';
import { recordPolicyEvents } from '../cli/policy-audit.js';
import { toCoinopError } from '../errors.js';
import type { BatchPort } from '../mcp/ports.js';
import { capture } from '../cli/capture.js';
// The flag table only (the command tree declares it too); the batch's work is loaded when a batch runs.
import { BATCH_FLAG_TABLE } from './withdraw/batch/flags.js';

/** What the command says when the batch had run before and this run sent nothing. */
const RAN_BEFORE = /^(this batch already ran to the end|nothing left to send in this batch)/m;

export function batchPort(parent: Invocation, connection: () => Promise<Connection> | undefined): BatchPort {
  return {
    async run(options) {
      const out = capture();
      const err = capture();
      const stdin = new PassThrough();
      stdin.end();
      const io = makeIO(
        { stdin, stdout: out.stream, stderr: err.stream },
        { env: parent.env, noInput: true, noColour: true },
      );
      const ctx = createContext(io, parent.env, parent.version, () => parent.now());
      await ctx.prepare();
      ctx.globals = { context: parent.globals.context, output: 'json' };
      // The batch's entries in the audit trail name the agent, and its policy verdicts are recorded there too.
      ctx.agent = options.agent;
      recordPolicyEvents(ctx.onPolicyEvent, () => ctx.audit, ctx.onCleanup);
      const conn = connection();
      if (conn) ctx.connect = () => conn;
      const [{ parseBatchOptions }, { runBatch }] = await Promise.all([
        import('./withdraw/batch/options.js'),
        import('./withdraw/batch/run.js'),
      ]);
      // The command's own defaults (--concurrency, --rate, --wait-timeout) for what is not set here.
      const opts = parseBatchOptions(
        BATCH_FLAG_TABLE.raw({
          format: options.format,
          profileId: options.profileId,
          skipInvalid: options.skipInvalid,
          resume: true,
          yes: true,
        }),
      );
      let error: unknown;
      try {
        await runBatch(ports(ctx), options.file, opts, {
          timesFile: ctx.env.COINOP_BATCH_TIMES,
          baseUrl: ctx.settings.overrides.COINOP_BASE_URL,
          context: ctx.globals.context,
        });
      } catch (e) {
        error = e;
      } finally {
        await ctx.cleanup();
      }
      const text = out.text().trim();
      const log = err
        .text()
        .split('\n')
        .filter((l) => l.trim() !== '' && !l.startsWith('progress: '));
      return {
        rows: text.startsWith('[') ? (JSON.parse(text) as Record<string, unknown>[]) : [],
        log,
        ...(error !== undefined ? { error: toCoinopError(error) } : {}),
        ranBefore: RAN_BEFORE.test(err.text()),
      };
    },
  };
}
