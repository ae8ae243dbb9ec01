// The test terminal itself (test/cli/terminal.ts): what a command printed before it exited reaches the screen even when
// this process reads it late. node-pty destroys the terminal's socket 200 ms after the child's exit unless it closed
// by then, which on a loaded machine dropped a chart's last lines; here the terminal is paused until that destroy.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Term } from './terminal.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('the test terminal', () => {
  it("keeps a command's last output that was not read before node-pty destroyed the terminal", async () => {
    const t = new Term(['--version'], { PATH: process.env.PATH });
    // Not read at all until node-pty gives up waiting for the terminal to close and destroys it.
    t.proc.pause();
    expect(await t.exit()).toBe(0);
    expect(t.screen()).toContain(VERSION);
  });
});
