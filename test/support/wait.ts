// The one way a test waits for something to happen: the condition it awaits, polled until it holds, with a deadline
// (vitest's vi.waitUntil underneath). Never a fixed sleep that assumes the machine's speed: on a busy machine it is
// too short (a flake), on an idle one too long (a slow suite). test/structure/waits.test.ts holds the tests to this.
import { vi } from 'vitest';

export interface UntilOptions {
  /**
   * How long the condition may take before the test fails (default 30 s: a deadline for a machine busy with other
   * work, which a healthy run on any machine never comes near; 15 s was passed at a load of 16 on 2 cores).
   */
  timeoutMs?: number;
  /** How often it is checked (default 10 ms). */
  everyMs?: number;
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Resolves with the first truthy value of `check` (which may be async: the next check waits for it); fails after
 * `timeoutMs` saying what was awaited (`what`, or what it returns then: a screen, a state). A check that throws fails
 * at once.
 */
export async function until<T>(
  what: string | (() => string),
  check: () => T | Promise<T>,
  { timeoutMs = 30_000, everyMs = 10 }: UntilOptions = {},
): Promise<Truthy<T>> {
  try {
    return (await vi.waitUntil(check, { timeout: timeoutMs, interval: everyMs })) as Truthy<T>;
  } catch (e) {
    if (e instanceof Error && e.message === 'Timed out in waitUntil!')
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    throw e;
  }
}
