// The pager in process, with real pager processes: a list waits for a pager that reads slowly before it takes more
// rows, and stops when the pager quits; what is held for a short table is written in order, stdout and stderr.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { makeIO } from '../../src/cli/io.js';
import { canRun, Pager } from '../../src/cli/pager.js';
import { Output } from '../../src/render/output.js';
import { capturedStreams } from './helpers.js';

function terminalIO(rows = 24) {
  const c = capturedStreams();
  Object.assign(c.out, { isTTY: true, columns: 120, rows });
  Object.assign(c.err, { isTTY: true, columns: 120, rows });
  const io = makeIO({ stdin: new PassThrough(), stdout: c.out, stderr: c.err }, { env: { NO_COLOR: '1' } });
  return { io, c };
}

/** Rows without end, a turn of the event loop every 50 (as pages fetched over the network give). */
function endless(counter: { pulled: number }) {
  return (async function* () {
    for (;;) {
      counter.pulled++;
      if (counter.pulled % 50 === 0) await new Promise((r) => setImmediate(r));
      yield { id: String(counter.pulled).padStart(36, '0'), note: 'x'.repeat(300) };
    }
  })();
}

describe('the pager', () => {
  it('a list waits while the pager has not read what it was given, and ends when the pager quits', async () => {
    const { io } = terminalIO();
    // A pager that reads nothing for 2 s, then quits.
    const pager = new Pager(io, 'sleep 2', process.env);
    pager.install();
    const counter = { pulled: 0 };
    const n = await new Output(io, 'table').list(endless(counter), [{ key: 'id', kind: 'id' }, { key: 'note' }]);
    await pager.finish();
    expect(io.closed).toBe(true);
    expect(n).toBeGreaterThan(24);
    // What the pipe to the pager holds, and no more: without waiting it would have taken rows for the full 2 s.
    expect(counter.pulled).toBeLessThan(20_000);
  }, 20_000);

  it('a short output never starts the pager: what was held is written in order, stdout and stderr', async () => {
    const { io, c } = terminalIO();
    const pager = new Pager(io, 'false', process.env);
    pager.install();
    io.err('before\n');
    io.out('row 1\n');
    io.err('note after row 1\n');
    io.out('row 2\n');
    expect(c.stdout).toBe('');
    await pager.finish();
    expect(c.stdout).toBe('row 1\nrow 2\n');
    expect(c.stderr).toBe('before\nnote after row 1\n');
    expect(io.closed).toBeFalsy();
    // io.out and io.err are given back.
    io.out('after\n');
    expect(c.stdout).toBe('row 1\nrow 2\nafter\n');
  });

  it('finds a pager by path or on PATH, quoted or not', () => {
    expect(canRun('less -FRX', process.env.PATH)).toBe(canRun('less', process.env.PATH));
    expect(canRun(`'${process.execPath}' script.js`, undefined)).toBe(true);
    expect(canRun(`"${process.execPath}"`, undefined)).toBe(true);
    expect(canRun('sh -c true', process.env.PATH)).toBe(true);
    expect(canRun('no-such-pager-here', process.env.PATH)).toBe(false);
    expect(canRun('', process.env.PATH)).toBe(false);
  });
});
