// Abuse on a terminal: random keystrokes (arrows, enter, escape sequences, odd text, backspace, paste bursts,
// Ctrl-C, Ctrl-D, resizes) into every prompting command on a pseudo-terminal. coinop must end by itself or on
// Ctrl-C with a documented exit code, never show an internal error, and give the terminal back (cursor shown,
// alternate screen left).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from '../cli/helpers.js';
import { KEY, Term } from '../cli/terminal.js';
import { INTERNAL, Rng } from './support.js';

const SEED = Number(process.env.COINOP_FUZZ_SEED ?? 20261121);
const RUNS = Number(process.env.COINOP_FUZZ_TTY ?? 12);

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ withdrawalSettleSeconds: 1 });
});
afterAll(async () => sb?.close());

const COMMANDS = [
  ['withdraw'],
  ['fee', 'quote'],
  ['sandbox', 'deposit'],
  ['prices'],
  ['login', '--name', 'tty-fuzz'],
  ['addresses', 'create'],
  ['withdraw', '--asset', 'ETH'],
  ['stream', 'heartbeat'],
  ['stream', 'book', 'BTCUSD'],
];

function keystroke(rng: Rng): string {
  return rng.pick([
    () => KEY.enter,
    () => KEY.up,
    () => KEY.down,
    () => KEY.space,
    () => '\u001b[C',
    () => '\u001b[D',
    () => '\u001b',
    () => '\t',
    () => '\u007f'.repeat(rng.int(1, 30)),
    () => '\u0015',
    () => 'q',
    () => 'y',
    () => 'n',
    () => rng.word(),
    () => rng.decimal(10),
    () => '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
    () => '0xF0Aa84466e353E5390be37FE2934301c07c19a55',
    () => '-1',
    () => '1e9',
    () =>
      rng
        .odd()
        .replace(/\u0000/g, '')
        .slice(0, 300),
    () => 'x'.repeat(rng.int(500, 4000)),
    () => '\u001b[200~pasted\ntext\u001b[201~',
    () => '\u001b[1;5A',
    () => '\u001bOP',
    () => '\u0004',
  ])();
}

/**
 * The random typing speed of these sessions (the subject, not a wait for something to happen): a pause between keys,
 * cut short when the command ends.
 */
const pause = (t: Term, ms: number) =>
  new Promise<void>((res) => {
    const timer = setTimeout(res, ms);
    void t.exited.then(() => {
      clearTimeout(timer);
      res();
    });
  });

describe('random keystrokes on a terminal', () => {
  it(`${RUNS} sessions of random keys into prompting commands end cleanly`, async () => {
    const r = new Rng(SEED + 9);
    const failures: string[] = [];
    const codes = new Map<number, number>();
    for (let i = 0; i < RUNS; i++) {
      const args = COMMANDS[i % COMMANDS.length];
      const t = new Term(args, { ...sb.env, NO_COLOR: undefined }, 100, 30);
      const keys: string[] = [];
      let ended = false;
      void t.exited.then(() => (ended = true));
      // Keys go to the command once it has drawn something (or ended), however slowly it starts.
      await expect.poll(() => ended || t.screen().trim() !== '', { timeout: 30_000 }).toBe(true);
      for (let k = 0; k < r.int(5, 40) && !ended; k++) {
        const key = keystroke(r);
        keys.push(JSON.stringify(key.slice(0, 20)));
        t.type(key);
        if (r.int(0, 9) === 0) {
          const [cols, rows] = [r.int(20, 200), r.int(5, 60)];
          try {
            t.proc.resize(cols, rows);
          } catch (e) {
            // The key just typed ended the command before its exit reached us: its terminal is gone (EBADF).
            if (!/EBADF/.test(String(e))) throw e;
          }
        }
        await pause(t, r.int(0, 30));
      }
      // Whatever state it is in, Ctrl-C ends it (twice: a first one may only close a prompt's own line).
      if (!ended) t.type(KEY.ctrlC);
      await pause(t, 150);
      if (!ended) t.type(KEY.ctrlC);
      let code: number;
      try {
        // Generous: a paste of thousands of keys into a prompt is slow on a loaded machine; a hang is what this catches.
        code = await t.exit(60_000);
      } catch {
        t.proc.kill('SIGKILL');
        failures.push(`coinop ${args.join(' ')}: did not end after Ctrl-C; keys ${keys.join(' ')}`);
        continue;
      }
      codes.set(code, (codes.get(code) ?? 0) + 1);
      const label = `coinop ${args.join(' ')} [keys ${keys.join(' ').slice(0, 300)}]`;
      if (![0, 1, 2, 3, 4].includes(code)) failures.push(`${label}: exit ${code}`);
      if (INTERNAL.test(t.raw)) failures.push(`${label}: internal error on screen: ${t.screen().slice(-400)}`);
      // The terminal is given back: no alternate screen left on, the cursor not left hidden.
      const lastAlt = Math.max(t.raw.lastIndexOf('\u001b[?1049h'), -1);
      if (lastAlt >= 0 && t.raw.lastIndexOf('\u001b[?1049l') < lastAlt)
        failures.push(`${label}: alternate screen left on`);
      const lastHide = t.raw.lastIndexOf('\u001b[?25l');
      if (lastHide >= 0 && t.raw.lastIndexOf('\u001b[?25h') < lastHide) failures.push(`${label}: cursor left hidden`);
    }
    expect(failures).toEqual([]);
    console.log(
      `fuzz-tty: ${RUNS} terminal sessions, exit codes ${JSON.stringify(Object.fromEntries([...codes].sort()))}`,
    );
  }, 900_000);
});
