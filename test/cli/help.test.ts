// --help on every command of the tree has a description and examples; the top level documents the exit codes.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { makeProgram } from '../../src/commands/program.js';
import { createContext } from '../../src/cli/invocation.js';
import { makeIO } from '../../src/cli/io.js';

function build() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += d));
  const io = makeIO({ stdin: new PassThrough(), stdout: out, stderr: new PassThrough() }, { env: {} });
  const program = makeProgram(createContext(io, {}, '0.0.0'));
  const take = () => {
    const t = text;
    text = '';
    return t;
  };
  return { program, take };
}

function all(cmd: Command, path: string[] = []): [string, Command][] {
  return cmd.commands.flatMap((c) => [
    [[...path, c.name()].join(' '), c] as [string, Command],
    ...all(c, [...path, c.name()]),
  ]);
}

describe('help', () => {
  it('every command has a description and examples in its --help', async () => {
    const { program, take } = build();
    const commands = all(program);
    expect(commands.length).toBeGreaterThan(25);
    const missing: string[] = [];
    for (const [path, cmd] of commands) {
      cmd.outputHelp();
      const text = take();
      if (!cmd.description()) missing.push(`${path}: no description`);
      if (!text.includes('Examples:') || !text.includes('$ coinop')) missing.push(`${path}: no examples`);
    }
    expect(missing).toEqual([]);
  });
});
