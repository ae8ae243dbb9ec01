// The little of a shell the pages' console examples use, run in this process: `coinop ...` is runCli over captured
// streams (no child process), with `NAME=value` before it, `> FILE`, `< FILE`, `| jq -r .path`, `VAR=$(...)`,
// `"$VAR"`, `~/` for the home folder, `; echo "exit $?"`, and `cat FILE...`, `sed -i 'Ns/A/B/' FILE` and `mkdir -p DIR`
// for the files an example shows, edits or writes, `psql URL -c SQL` for a database's schema; startLine leaves a server (`coinop gateway start`, `local start`)
// running until it is stopped as by Ctrl-C. Anything else is refused by name, so a page cannot hold a command the test
// silently skips.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';

export interface Shell {
  /** The page's folder: files are read and written here. */
  dir: string;
  env: Record<string, string>;
  vars: Map<string, string>;
  /** A terminal's width when the block is on one (stdout and stderr are then terminals), else undefined. */
  terminal?: number;
  /**
   * What the person types, one answer per question asked (<!-- typed -->): coinop then runs on a whole terminal
   * (stdin too), and what it shows is that terminal's screen.
   */
  typed?: string[];
  /** The terminal's rows, when the block says (a live view fills them); else a tall terminal. */
  rows?: number;
  /**
   * A live view on a whole terminal, left by pressing `key` once the screen `shows` what the page shows (or after
   * `withinMs`, so a view that never does still ends, and is compared as it was then): what it shows is that screen.
   */
  onceShown?: { key: string; shows: (screen: string) => boolean; withinMs?: number };
}

export interface Ran {
  code: number;
  /** stdout and stderr in the order they were written, as a terminal shows them. */
  shown: string;
  stdout: string;
}

type Word = { text: string; quoted: boolean };

/** Splits a command line into words and the operators | ; > (quotes kept for expansion). */
function tokens(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote = '';
  let depth = 0;
  const flush = () => {
    if (cur) out.push(cur);
    cur = '';
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = '';
      cur += c;
    } else if (c === '$' && line[i + 1] === '(') {
      depth++;
      cur += '$(';
      i++;
    } else if (depth > 0) {
      if (c === '(') depth++;
      if (c === ')') depth--;
      cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      cur += c;
    } else if (/\s/.test(c)) flush();
    else if (c === '|' || c === ';' || c === '>' || c === '<') {
      flush();
      out.push(c);
    } else cur += c;
  }
  flush();
  return out;
}

/** One word with its quotes taken off, `~/` (unquoted, first) as the home folder, $VAR, $? and $(...) expanded. */
async function expand(word: string, sh: Shell, last: number): Promise<Word> {
  const raw = word === '~' || word.startsWith('~/') ? sh.env.HOME + word.slice(1) : word;
  let out = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === "'") {
      const end = raw.indexOf("'", i + 1);
      out += raw.slice(i + 1, end);
      quoted = true;
      i = end;
    } else if (c === '"') quoted = true;
    else if (c === '$') {
      const [text, next] = await dollar(raw, i, sh, last);
      out += text;
      i = next - 1;
    } else out += c;
  }
  return { text: out, quoted };
}

async function dollar(raw: string, at: number, sh: Shell, last: number): Promise<[string, number]> {
  if (raw[at + 1] === '?') return [String(last), at + 2];
  if (raw[at + 1] === '(') {
    let depth = 1;
    let end = at + 2;
    for (; end < raw.length && depth > 0; end++) depth += raw[end] === '(' ? 1 : raw[end] === ')' ? -1 : 0;
    const ran = await runLine(raw.slice(at + 2, end - 1), sh);
    if (ran.code !== 0) throw new Error(`$(${raw.slice(at + 2, end - 1)}) failed: ${ran.shown}`);
    return [ran.stdout.replace(/\n+$/, ''), end];
  }
  const name = /^\{?([A-Za-z_][A-Za-z0-9_]*)\}?/.exec(raw.slice(at + 1));
  if (!name) return ['$', at + 1];
  const value = sh.vars.get(name[1]);
  if (value === undefined) throw new Error(`$${name[1]} is not set by an earlier example of the page`);
  return [value, at + 1 + name[0].length];
}

/** Runs a command line: `a ; b`, each a pipeline `x | y` with an optional `> FILE`, or `VAR=$(...)`. */
export async function runLine(line: string, sh: Shell): Promise<Ran> {
  const parts = splitOn(tokens(line), ';');
  let last: Ran = { code: 0, shown: '', stdout: '' };
  let shown = '';
  for (const part of parts) {
    const assign = part.length === 1 ? /^([A-Za-z_][A-Za-z0-9_]*)=(\$\(.*\))$/s.exec(part[0]) : null;
    if (assign) {
      const value = await expand(assign[2], sh, last.code);
      sh.vars.set(assign[1], value.text);
      continue;
    }
    last = await pipeline(part, sh, last.code);
    shown += last.shown;
  }
  return { ...last, shown };
}

function splitOn(words: string[], op: string): string[][] {
  const out: string[][] = [[]];
  for (const w of words)
    if (w === op) out.push([]);
    else out[out.length - 1].push(w);
  return out;
}

/** A pipeline's words without `OP FILE`, and FILE (expanded), if it has one. */
async function redirection(words: string[], op: '<' | '>', sh: Shell, lastCode: number) {
  const at = words.indexOf(op);
  if (at < 0) return { words, file: undefined };
  const file = (await expand(words[at + 1], sh, lastCode)).text;
  return { words: [...words.slice(0, at), ...words.slice(at + 2)], file };
}

async function pipeline(line: string[], sh: Shell, lastCode: number): Promise<Ran> {
  const out = await redirection(line, '>', sh, lastCode);
  const source = await redirection(out.words, '<', sh, lastCode);
  const target = out.file;
  const stages = splitOn(source.words, '|');
  let input = source.file === undefined ? '' : readFileSync(pathIn(sh, source.file), 'utf8');
  let shown = '';
  let ran: Ran = { code: 0, shown: '', stdout: '' };
  for (const [i, stage] of stages.entries()) {
    const expanded = await Promise.all(stage.map((w) => expand(w, sh, lastCode)));
    ran = await program(expanded, sh, input, i < stages.length - 1 || target !== undefined);
    shown += ran.shown;
    input = ran.stdout;
  }
  if (target !== undefined) writeFileSync(pathIn(sh, target), ran.stdout);
  return { code: ran.code, shown, stdout: ran.stdout };
}

function pathIn(sh: Shell, name: string): string {
  return isAbsolute(name) ? name : join(sh.dir, name);
}

/** One program of a pipeline; `piped`: its stdout goes on (so it is not shown). */
async function program(words: Word[], sh: Shell, input: string, piped: boolean): Promise<Ran> {
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0].text)) {
    const [name, ...value] = words.shift()!.text.split('=');
    env[name] = value.join('=');
  }
  const [name, ...args] = words.map((w) => w.text);
  const says = (stdout: string): Ran => ({ code: 0, shown: piped ? '' : stdout, stdout });
  if (name === 'coinop') return coinop(args, { ...sh.env, ...env }, sh, input, piped);
  if (name === 'cat') return says(args.map((f) => readFileSync(pathIn(sh, f), 'utf8')).join(''));
  if (name === 'echo') return says(`${args.join(' ')}\n`);
  if (name === 'jq' && args[0] === '-r') return says(jq(args[1], input));
  if (name === 'sed' && args[0] === '-i') return says(sed(args[1], pathIn(sh, args[2])));
  if (name === 'psql' && args[1] === '-c') return psql(args[0], args[2]);
  if (name === 'mkdir' && args[0] === '-p') {
    for (const dir of args.slice(1)) mkdirSync(pathIn(sh, dir), { recursive: true });
    return says('');
  }
  throw new Error(
    `the examples' shell does not run ${JSON.stringify(name)}: give the example's files with <!-- file: NAME -->`,
  );
}

/**
 * `psql URL -c SQL`: the statement run on that database. Its command tag (what psql prints) is not shown: a page shows
 * nothing under it, so it is only required to succeed; an error is said as psql says it, exit 1.
 */
async function psql(url: string, statement: string): Promise<Ran> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query(statement);
    return { code: 0, shown: '', stdout: '' };
  } catch (e) {
    return { code: 1, shown: `ERROR:  ${(e as Error).message}\n`, stdout: '' };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** `jq -r .a.b` over each JSON value of the input (a document, or NDJSON). */
function jq(path: string, input: string): string {
  const keys = path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean);
  const values = input.trim().startsWith('[') || !input.includes('\n{') ? [JSON.parse(input)] : ndjson(input);
  return values.map((v) => `${keys.reduce((o, k) => o?.[k], v)}\n`).join('');
}

function ndjson(input: string): unknown[] {
  return input
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** `sed -i 'Ns/A/B/' FILE`: on line N, A (a literal) becomes B. */
function sed(script: string, file: string): string {
  const m = /^(\d+)s\/((?:[^/\\]|\\.)*)\/((?:[^/\\]|\\.)*)\/$/.exec(script);
  if (!m) throw new Error(`sed: only 'Ns/A/B/' is supported, not ${script}`);
  const lines = readFileSync(file, 'utf8').split('\n');
  const n = Number(m[1]) - 1;
  const before = lines[n] ?? '';
  lines[n] = before.replace(m[2].replace(/\\(.)/g, '$1'), m[3].replace(/\\(.)/g, '$1'));
  if (lines[n] === before) throw new Error(`sed: line ${m[1]} of ${file} does not hold ${m[2]}`);
  writeFileSync(file, lines.join('\n'));
  return '';
}

/** A file argument as the page names it, made absolute in the page's folder (the test cannot chdir a worker). */
function fileArg(arg: string, sh: Shell): string {
  if (arg.startsWith('-') || isAbsolute(arg) || arg.includes('://')) return arg;
  const eq = /^(--[a-z-]+=)(.*)$/.exec(arg);
  if (eq) return eq[1] + fileArg(eq[2], sh);
  const looksLikeFile = /^[\w.-]+\.(csv|json|jsonl|ndjson|yaml|yml|key|txt|pem)$/.test(arg);
  return looksLikeFile || existsSync(join(sh.dir, arg)) ? join(sh.dir, arg) : arg;
}

/** A stream coinop writes to, each chunk handed to `take`; `terminal`: what makes it a terminal's (isTTY, columns...). */
function writer(take: (text: string) => void, terminal: object): Writable {
  return Object.assign(
    new Writable({
      write(chunk, _enc, done) {
        take(String(chunk));
        done();
      },
    }),
    terminal,
  );
}

/** coinop in this process, stdout and stderr captured in the order they are written. */
async function coinop(args: string[], env: Record<string, string>, sh: Shell, input: string, piped: boolean) {
  if ((sh.typed || sh.onceShown) && !piped) return onTerminal(args, env, sh, sh.typed ?? []);
  const run = await startCoinop(args, env, sh, input, piped);
  const code = await run.done;
  return { code, shown: run.shown(), stdout: run.stdout() };
}

/** coinop started in this process (`stop` ends a server as Ctrl-C does): what it has written so far, its exit code. */
async function startCoinop(
  args: string[],
  env: Record<string, string>,
  sh: Shell,
  input: string,
  piped: boolean,
  stop?: AbortSignal,
  onWrite?: () => void,
) {
  const { runCli } = await import('../../src/commands/main.js');
  const chunks: string[] = [];
  let stdout = '';
  const stream = (isOut: boolean) =>
    writer(
      (text) => {
        if (isOut) stdout += text;
        if (!isOut || !piped) chunks.push(text);
        onWrite?.();
      },
      sh.terminal && !(isOut && piped) ? { isTTY: true, columns: sh.terminal, rows: 50 } : {},
    );
  const stdin = new PassThrough();
  stdin.end(input);
  const argv = ['node', 'coinop', ...args.map((a) => fileArg(a, sh))];
  const done = runCli(argv, { stdin, stdout: stream(true), stderr: stream(false), env, stop });
  return { done, shown: () => chunks.join(''), stdout: () => stdout };
}

/** A server left running: what it printed once ready, and its stop. */
export interface Started {
  ran: Ran;
  /**
   * Stops it as Ctrl-C does; what it showed from its start until it ended, with `^C` (as a terminal echoes it) where
   * Ctrl-C was pressed, and its exit code.
   */
  stop(): Promise<Ran>;
}

/** The length of the first whole line of a text, or undefined before it ends: a server that said it is up. */
export const firstLine = (text: string): number | undefined =>
  text.includes('\n') ? text.indexOf('\n') + 1 : undefined;

/**
 * Starts `coinop ...` (a server: gateway start, local start, events listen) and waits until it is ready: `ready`
 * takes what it has shown so far and gives how much of it makes it ready (undefined: not yet). A server that ends
 * first is ready with all it showed, and one that is not ready within `readyWithinMs` with what it showed by then.
 */
export async function startLine(
  line: string,
  sh: Shell,
  ready: (shown: string) => number | undefined = firstLine,
  readyWithinMs = 20_000,
): Promise<Started> {
  const words = await Promise.all(tokens(line).map((w) => expand(w, sh, 0)));
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0].text)) {
    const [name, ...value] = words.shift()!.text.split('=');
    env[name] = value.join('=');
  }
  const [name, ...args] = words.map((w) => w.text);
  if (name !== 'coinop' || args.some((a) => /^[|;<>]$/.test(a)))
    throw new Error(`a server left running is one coinop command, not ${JSON.stringify(line)}`);
  const stop = new AbortController();
  let wrote = () => {};
  const run = await startCoinop(args, { ...sh.env, ...env }, sh, '', false, stop.signal, () => wrote());
  let pressedAt: number | undefined;
  const stopped = async (): Promise<Ran> => {
    pressedAt ??= run.shown().length;
    stop.abort();
    const code = await run.done;
    const shown = run.shown();
    return { code, shown: `${shown.slice(0, pressedAt)}^C\n${shown.slice(pressedAt)}`, stdout: run.stdout() };
  };
  let upTo: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    run.done,
    new Promise<undefined>((resolve) => {
      wrote = () => {
        upTo ??= ready(run.shown());
        if (upTo !== undefined) resolve(undefined);
      };
      wrote();
      timer = setTimeout(() => resolve(undefined), readyWithinMs);
    }),
  ]).finally(() => clearTimeout(timer));
  const shown = run.shown();
  const readyShown = code === undefined && upTo !== undefined ? shown.slice(0, upTo) : shown;
  return { ran: { code: code ?? 0, shown: readyShown, stdout: run.stdout() }, stop: stopped };
}

/** A question of a prompt (inquirer's `? ` before it), as written to a terminal: colours may wrap the `?`. */
const QUESTION = /(^|\n)(\u001b\[[0-9;]*m)*\?(\u001b\[[0-9;]*m)* /g;

/**
 * What a terminal shows: its active screen's lines (the alternate screen of a live view while it is on), a line the
 * terminal wrapped joined again, as copying it from the terminal gives it.
 */
function screenText(screen: import('@xterm/headless').Terminal): string {
  const buffer = screen.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buffer.length; i++) {
    const line = buffer.getLine(i);
    const text = line?.translateToString(true) ?? '';
    if (line?.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * coinop on a terminal of the block's width (stdin, stdout and stderr): each question it asks is answered with the
 * next of `answers` (and Enter), and what it shows is the screen (@xterm/headless draws what it wrote). A live view
 * (sh.onceShown) is left with its key once its screen shows what the page shows: what it shows is that screen.
 */
async function onTerminal(args: string[], env: Record<string, string>, sh: Shell, answers: string[]): Promise<Ran> {
  const [{ runCli }, { default: xterm }] = await Promise.all([
    import('../../src/commands/main.js'),
    import('@xterm/headless'),
  ]);
  const columns = sh.terminal ?? Number(env.COLUMNS || 80);
  const rows = sh.rows ?? 50;
  const screen = new xterm.Terminal({ cols: columns, rows, scrollback: 10_000, allowProposedApi: true });
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
  let written = '';
  let stdout = '';
  let asked = 0;
  const view = sh.onceShown;
  /** The screen when the view's key was pressed. */
  let left: string | undefined;
  const leave = (shown: string) => {
    if (left !== undefined || !view) return;
    left = shown;
    clearTimeout(deadline);
    stdin.write(view.key);
  };
  const deadline = setTimeout(() => leave(screenText(screen)), view?.withinMs ?? 15_000);
  const stream = (isOut: boolean) =>
    writer(
      (text) => {
        if (isOut) stdout += text;
        written += text;
        // A live view's frame is one write: the screen is judged once xterm has drawn it.
        screen.write(text.replace(/\r?\n/g, '\r\n'), () => {
          const now = view && left === undefined ? screenText(screen) : undefined;
          if (now !== undefined && view?.shows(now)) leave(now);
        });
        // A new question: the next answer, typed once the prompt is drawn.
        const questions = written.match(QUESTION)?.length ?? 0;
        if (questions > asked && asked < answers.length) {
          const answer = answers[asked++];
          setImmediate(() => stdin.write(`${answer}\r`));
        }
      },
      // A prompt ends its output stream when it is answered: a terminal stays open. Prompts get a tall one.
      { isTTY: true, columns, rows: sh.rows ?? 1000, end: () => undefined },
    );
  const argv = ['node', 'coinop', ...args.map((a) => fileArg(a, sh))];
  const code = await runCli(argv, { stdin, stdout: stream(true), stderr: stream(false), env }).finally(() =>
    clearTimeout(deadline),
  );
  stdin.end();
  await new Promise<void>((resolve) => screen.write('', resolve));
  const shown = left ?? screenText(screen);
  screen.dispose();
  return { code, shown, stdout };
}
