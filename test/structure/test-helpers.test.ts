// Test helpers, one place per concern: the repository root and the CLI's path are defined in test/support/paths.ts
// alone, and the client-credentials token request is written in test/support/tokens.ts alone (only the tests of the
// token endpoint itself, which send it malformed or count its answers, write their own).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modules, ROOT } from './support.js';

const TOKEN_ENDPOINT_TESTS = [
  'test/gateway/gateway.test.ts', // a wrong secret is refused
  'test/local/auth.test.ts',
  'test/local/faults.test.ts',
  'test/local/fixtures/child-service.ts', // a child process: no test support
  'test/local/migrations.test.ts', // the scopes a client is granted
  'test/proof/fuzz-http.test.ts', // malformed token requests
];
const TOKEN_FORM = ['grant_type', "'client_credentials'"].join(': ');

const testFiles = () => modules('test').map((m) => m.file);
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('test helpers in one place', () => {
  it('ROOT and BIN are defined once (test/support/paths.ts)', () => {
    const defined = testFiles().filter((f) => /^(export )?const (ROOT|BIN) =/m.test(text(f)));
    expect(defined).toEqual(['test/support/paths.ts']);
  });

  it('the client-credentials token request is written once (test/support/tokens.ts)', () => {
    const written = testFiles().filter((f) => text(f).includes(TOKEN_FORM) && !TOKEN_ENDPOINT_TESTS.includes(f));
    expect(written).toEqual(['test/support/tokens.ts']);
  });
});
