// The console examples of the README and docs/*.md, read from the pages as they are (test/docs/examples.test.ts runs
// them). What a page may say to the test, in HTML comments right before a fenced block:
//   <!-- file: NAME -->           the block's text is a file the examples use: the test writes it, at that point;
//   <!-- not run: REASON -->      a console block the test does not run (a hosted account, another machine...): the
//                                 page says so in a sentence a reader sees, the test lists it with its reason;
//   <!-- clock: +SECONDS -->      before this block, the local service's clock moves on (POST /_local/clock/advance),
//                                 as the sentence before the block says (`next month's 4th`: to that day, 00:00 UTC;
//                                 `next HH:MM ZONE`: to the next time it is HH:MM in that time zone, such as a time
//                                 within a policy's hours);
//   <!-- local service: POST PATH JSON -->  before this block, that request to the local service's control API (as
//                                 the sentence before the block says);
//   <!-- values vary: WHAT -->    in this block, every number (prices, amounts of a simulated market) is masked;
//   <!-- terminal: COLUMNS -->    this block's commands run on a terminal that wide (stdout and stderr);
//                                 `COLUMNSxROWS`: that wide and that high (a live view fills the rows it has);
//                                 `... screen`: on a whole terminal (stdin too), what a command shows being the
//                                 screen drawn (a status line under the lines, redrawn, shows as a person sees it);
//   <!-- typed: ANSWER ... -->    this block's commands run on a whole terminal (stdin too) where the person answers
//                                 each question asked with the next ANSWER (space-separated) and Enter; what a
//                                 command shows is the terminal's screen;
//   <!-- typed once shown: KEY --> this block's commands run on a whole terminal (stdin too, <!-- terminal --> its
//                                 size): a live view, left by KEY (`q`) once its screen shows what the page shows
//                                 (masked: prices move); what it shows is the screen at that moment;
//   <!-- background: WHAT -->     this block's commands are servers left running (coinop gateway start, local start,
//                                 in a terminal of their own): each is started, and is ready once what it printed
//                                 (whole lines) is what the page shows (its first line when the page shows none, or
//                                 what it printed within 20 s, compared then). A line `^C` in what it shows: the
//                                 lines before it are what it prints until ready, and the lines after it what it
//                                 printed once stopped as by Ctrl-C when the page's examples end (all of it compared
//                                 then); without one it is stopped then all the same;
//   <!-- free port: PORT -->      from this block on, the port PORT in the page's commands (a server's, such as the
//                                 gateway's 7358) is a free port of the machine: two runs on one machine must not meet
//                                 (in what the commands print, that free port is PORT again);
//   <!-- web server: PORT -->     from this block on, another program listens at the page's PORT (a free port, as
//                                 above): a web server that knows nothing of coinop, answering as `python3 -m
//                                 http.server` does (test/support/foreign-server.ts). When PORT is the local context's
//                                 (7357), the page's machine's `local` context is at it from then on, saved in its
//                                 configuration (as on a machine where that program took 127.0.0.1:7357);
//   <!-- webhook receiver: PORT -->  from this block on, a webhook receiver listens at the page's PORT (a free port,
//                                 as above), answering each delivery 200 (test/docs/receiver.ts); `PORT, 503 once for
//                                 TYPE`: the first delivery of that event type is answered 503 (down for a moment);
//   <!-- postgres: URL SCHEMA... -->  from this block on, the PostgreSQL database at URL in the page's commands is the
//                                 machine's (127.0.0.1:5432, database test, or COINOP_TEST_PG_URL), and each SCHEMA a
//                                 schema of the run's own (SCHEMA_ and random letters), dropped when the page's
//                                 examples end (in what the commands print, they are URL and SCHEMA again).
// In a console block, `$ ` starts a command on the page's machine and `NAME$ ` one on NAME's own machine (a page where
// several people work: each has their own home, configuration and data folders, and is the user NAME; files named
// without a folder are in the one folder they hand each other). A line ending in `\` goes on on the next line; `# ...`
// after a command is a comment. The lines up to the next command are what it shows, stdout and stderr as a terminal
// interleaves them. A line `...` stands for any number of lines. A command that shows nothing is only required to
// succeed. An id, key, secret, address or port that a command printed where the page shows another (test/docs/masks.ts)
// is carried: a later command or file of the page that names the page's value is given the run's (the pending id an
// approver types, the approvers' keys in a policy file, a client id).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Example {
  /** The command as written (continuations joined, the comment left out). */
  command: string;
  /** Its line on the page (1-based). */
  line: number;
  /** The lines shown under it. */
  shown: string[];
  /** NAME of a `NAME$ ` prompt: the command runs on NAME's machine (else on the page's). */
  machine?: string;
}

/** Where the local service's clock moves before a block: by seconds, to next month's 4th, to a time of day. */
export type ClockMove = number | 'next-month-4th' | { hour: number; minute: number; zone: string };

export type Step =
  | { kind: 'file'; name: string; text: string; line: number }
  | {
      kind: 'block';
      line: number;
      examples: Example[];
      skip?: string;
      clock?: ClockMove;
      control?: { method: string; path: string; body: unknown };
      vary?: string;
      terminal?: number;
      background?: string;
      freePort?: number;
      typed?: string[];
      /** The terminal's rows (<!-- terminal: COLUMNSxROWS -->). */
      rows?: number;
      /** A whole terminal, what a command shows being its screen (<!-- terminal: ... screen -->). */
      screen?: boolean;
      /** The key that leaves a live view once it shows what the page shows (<!-- typed once shown -->). */
      typedOnceShown?: string;
      /** Another program's port (<!-- web server -->). */
      webServer?: number;
      /** A webhook receiver's port, and the event type it refuses once (<!-- webhook receiver -->). */
      receiver?: { port: number; refuseOnce?: string };
      /** A PostgreSQL database the page names, and the schemas it makes there (<!-- postgres -->). */
      postgres?: { url: string; schemas: string[] };
    };

export interface Page {
  path: string;
  steps: Step[];
}

/** The pages whose console examples run: the README and every page of docs/. */
export function pagePaths(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

const MARKER = /^<!-- ([a-z ]+):\s*(.*?)\s*-->$/;

/** A page's fenced blocks that matter here, in order, with the markers right before each. */
export function readPage(root: string, path: string): Page {
  const lines = readFileSync(join(root, path), 'utf8').split('\n');
  const steps: Step[] = [];
  let markers = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER.exec(lines[i].trim());
    if (m) {
      markers.set(m[1], m[2]);
      continue;
    }
    const fence = /^(\s*)```(\w*)\s*$/.exec(lines[i]);
    if (!fence) {
      if (lines[i].trim() !== '') markers = new Map();
      continue;
    }
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++;
    const body = lines.slice(i + 1, end).map((l) => l.slice(fence[1].length));
    const step = stepOf(fence[2], body, i + 1, markers);
    if (step) steps.push(step);
    markers = new Map();
    i = end;
  }
  return { path, steps };
}

function stepOf(lang: string, body: string[], line: number, markers: Map<string, string>): Step | undefined {
  const file = markers.get('file');
  if (file) return { kind: 'file', name: file, text: `${body.join('\n')}\n`, line };
  if (lang !== 'console') return undefined;
  return {
    kind: 'block',
    line,
    examples: examplesOf(body, line + 1),
    skip: markers.get('not run'),
    clock: clockOf(markers.get('clock')),
    control: controlOf(markers.get('local service')),
    vary: markers.get('values vary'),
    ...terminalOf(markers.get('terminal')),
    background: markers.get('background'),
    freePort: markers.has('free port') ? Number(markers.get('free port')) : undefined,
    typed: markers.get('typed')?.split(/\s+/),
    typedOnceShown: markers.get('typed once shown'),
    webServer: markers.has('web server') ? Number(markers.get('web server')) : undefined,
    receiver: receiverOf(markers.get('webhook receiver')),
    postgres: postgresOf(markers.get('postgres')),
  };
}

/** `URL SCHEMA...`. */
function postgresOf(marker: string | undefined): { url: string; schemas: string[] } | undefined {
  const [url, ...schemas] = marker?.split(/\s+/) ?? [];
  if (!url) return undefined;
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new Error(`<!-- postgres: ${marker} -->: a postgres:// URL, then schemas`);
  return { url, schemas };
}

/** `COLUMNS` or `COLUMNSxROWS`, then `screen` for a whole terminal. */
function terminalOf(marker: string | undefined): { terminal?: number; rows?: number; screen?: boolean } {
  const size = marker ? /^(\d+)(?:x(\d+))?( screen)?$/.exec(marker) : null;
  if (marker && !size) throw new Error(`<!-- terminal: ${marker} -->: COLUMNS or COLUMNSxROWS, then screen or nothing`);
  if (!size) return {};
  return { terminal: Number(size[1]), rows: size[2] ? Number(size[2]) : undefined, screen: size[3] !== undefined };
}

/** `PORT` or `PORT, 503 once for TYPE`. */
function receiverOf(marker: string | undefined): { port: number; refuseOnce?: string } | undefined {
  if (!marker) return undefined;
  const parts = /^(\d+)(?:, 503 once for (\S+))?$/.exec(marker);
  if (!parts) throw new Error(`<!-- webhook receiver: ${marker} -->: PORT, or PORT, 503 once for TYPE`);
  return { port: Number(parts[1]), refuseOnce: parts[2] };
}

function clockOf(marker: string | undefined): ClockMove | undefined {
  if (!marker) return undefined;
  if (marker === "next month's 4th") return 'next-month-4th';
  const at = /^next (\d\d):(\d\d) (\S+)$/.exec(marker);
  if (at) return { hour: Number(at[1]), minute: Number(at[2]), zone: at[3] };
  return Number(marker.replace(/^\+/, ''));
}

function controlOf(marker: string | undefined): { method: string; path: string; body: unknown } | undefined {
  const m = marker ? /^(POST|PUT) (\/_local\/\S+) (.*)$/.exec(marker) : null;
  return m ? { method: m[1], path: m[2], body: JSON.parse(m[3]) } : undefined;
}

/** A command's prompt: `$ ` on the page's machine, `NAME$ ` on NAME's. */
const PROMPT = /^(?:([a-z][a-z0-9-]*))?\$ /;

/** The commands of a console block and what each shows. */
export function examplesOf(body: string[], firstLine: number): Example[] {
  const out: Example[] = [];
  for (let i = 0; i < body.length; i++) {
    const prompt = PROMPT.exec(body[i]);
    if (!prompt) {
      if (out.length > 0) out[out.length - 1].shown.push(body[i]);
      continue;
    }
    const line = firstLine + i;
    let command = body[i].slice(prompt[0].length);
    while (/\\\s*$/.test(command) && i + 1 < body.length)
      command = `${command.replace(/\\\s*$/, '')} ${body[++i].trim()}`;
    out.push({ command: withoutComment(command).trim(), line, shown: [], machine: prompt[1] });
  }
  for (const e of out) while (e.shown.length > 0 && e.shown[e.shown.length - 1].trim() === '') e.shown.pop();
  return out;
}

/** A command line without its trailing `# comment` (a `#` outside quotes, after a space). */
function withoutComment(command: string): string {
  let quote = '';
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(command[i - 1]))) return command.slice(0, i);
  }
  return command;
}
