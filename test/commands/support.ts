// Test support for the options tables: the usage error a parse function throws, as its message.
import { CoinopError } from '../../src/errors.js';

/** The message of the usage error `fn` throws; anything else (no error, another error) fails the test. */
export function usageMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof CoinopError && e.category === 'usage') return e.message;
    throw e;
  }
  throw new Error('no usage error was thrown');
}

/** The message of the usage error `p` rejects with; anything else (no error, another error) fails the test. */
export async function usageMessageOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof CoinopError && e.category === 'usage') return e.message;
    throw e;
  }
  throw new Error('no usage error was thrown');
}
