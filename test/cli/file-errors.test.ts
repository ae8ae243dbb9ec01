// A file given with --file or --input that is not valid input: one line naming the flag, the file and the rule, exit 2,
// nothing sent, and never a byte of the file's content (it may be /etc/shadow or a key).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
let secret: string;
let notJson: string;
let folder: string;
beforeAll(async () => {
  sb = await sandbox();
  // Like /etc/shadow: the parser's own message would quote its first bytes, the hash among them.
  secret = 's3cr3t$6$Zq9hash';
  notJson = join(sb.dir, 'shadow');
  writeFileSync(notJson, `${secret}:19000:0:99999:7:::\nroot:${secret}:19000::::::\n`);
  folder = join(sb.dir, 'a-folder');
  mkdirSync(folder);
});
afterAll(async () => sb?.close());

const CASES: [string, string[], RegExp][] = [
  [
    'deposit, not JSON',
    ['sandbox', 'deposit', '--amount', '10', '--file', 'NOT_JSON'],
    /^error: --file: \S+shadow is not JSON \(it must hold the wire instructions as a JSON object\)/,
  ],
  [
    'deposit, a directory',
    ['sandbox', 'deposit', '--amount', '10', '--file', 'FOLDER'],
    /^error: --file: cannot read \S+a-folder: it is a directory/,
  ],
  [
    'deposit, missing',
    ['sandbox', 'deposit', '--amount', '10', '--file', '/nonexistent/wire.json'],
    /^error: --file: cannot read \/nonexistent\/wire\.json: no such file/,
  ],
  [
    'api, not JSON',
    ['api', 'POST', '/v2/transfer/fees/crypto-withdrawal', '--input', 'NOT_JSON'],
    /^error: --input: \S+shadow is not JSON \(the request body must be JSON\)/,
  ],
  [
    'api, a directory',
    ['api', 'POST', '/v2/transfer/fees/crypto-withdrawal', '--input', 'FOLDER'],
    /^error: --input: cannot read \S+a-folder: it is a directory/,
  ],
];

describe('a file that is not valid input is named, never quoted', () => {
  it.each(CASES)('%s', async (_name, args, message) => {
    await sb.sent();
    const a = args.map((x) => (x === 'NOT_JSON' ? notJson : x === 'FOLDER' ? folder : x));
    const r = await sb.run(a);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain('s3cr3t');
    expect(r.stderr).not.toContain('19000');
    expect(await sb.sent()).toEqual([]);
  });

  it('standard input that is not JSON is named and not quoted either', async () => {
    const r = await sb.run(['api', 'POST', '/v2/transfer/fees/crypto-withdrawal', '--input', '-'], {
      input: `${secret}\n`,
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^error: --input: standard input is not JSON/);
    expect(r.stderr).not.toContain('s3cr3t');
  });
});
