// docs/hosted-endpoints.md is the hosted service's every operation (spec/upstream-v2.openapi.json) with whether
// coinop covers it (an operation of its contract, src/contract/operations.ts, of the same method and path): made from
// them, and kept so. After a change of either, write it again:
//   COINOP_WRITE_DOCS=1 node node_modules/vitest/vitest.mjs run test/structure/hosted-endpoints.test.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/contract/index.js';
import { ROOT } from '../support/paths.js';

const DOC = join(ROOT, 'docs', 'hosted-endpoints.md');
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

interface Spec {
  paths: Record<string, Record<string, { operationId?: string; summary?: string; tags?: string[] }>>;
}

/** A path with its parameters' names left out, so /a/{id} and /a/{profile_id} are the same path. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

function table(): string {
  const spec = JSON.parse(readFileSync(join(ROOT, 'spec', 'upstream-v2.openapi.json'), 'utf8')) as Spec;
  const ours = new Map(
    Object.values(operations).map((op) => [`${op.method} ${shape(op.path.replace(/^\/v2/, ''))}`, op.id]),
  );
  const rows: string[][] = [];
  let covered = 0;
  let total = 0;
  for (const [path, item] of Object.entries(spec.paths))
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      total++;
      const id = ours.get(`${method.toUpperCase()} ${shape(path)}`);
      if (id) covered++;
      rows.push([
        op.tags?.[0] ?? '',
        `\`${method.toUpperCase()} /v2${path}\``,
        op.summary ?? op.operationId ?? '',
        id ? `yes (\`${id}\`)` : 'no',
      ]);
    }
  const paths = Object.keys(spec.paths).length;
  return [
    "# The hosted service's endpoints, and which coinop covers",
    '',
    `Every operation of the hosted service's OpenAPI ([spec/upstream-v2.openapi.json](../spec/upstream-v2.openapi.json):`,
    `${paths} paths, ${total} operations), and whether coinop covers it: an operation of its contract`,
    '([src/contract/operations.ts](../src/contract/operations.ts)) of the same method and path, which the CLI, the local',
    `service and the MCP server use. coinop covers ${covered} of the ${total}. Made by`,
    '[test/structure/hosted-endpoints.test.ts](../test/structure/hosted-endpoints.test.ts), which keeps it current.',
    '',
    ...padded([['tag', 'operation', 'what', 'covered'], ...rows]),
    '',
  ].join('\n');
}

/** A markdown table with its columns padded to their widest cell (as the formatter lays tables out). */
function padded([head, ...body]: string[][]): string[] {
  const widths = head.map((_, col) => Math.max(3, ...[head, ...body].map((row) => row[col].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, col) => cell.padEnd(widths[col])).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)];
}

describe('docs/hosted-endpoints.md', () => {
  it("lists every operation of the hosted OpenAPI and whether coinop's contract covers it", () => {
    const made = table();
    if (process.env.COINOP_WRITE_DOCS === '1') writeFileSync(DOC, made);
    expect(readFileSync(DOC, 'utf8')).toBe(made);
  });

  it("covers the fiat accounts and fiat withdrawals, and every contract operation is one of the OpenAPI's", () => {
    const doc = table();
    for (const id of ['listFiatAccounts', 'getFiatAccount', 'createFiatAccount', 'updateFiatAccount'])
      expect(doc).toContain(`yes (\`${id}\`)`);
    expect(doc).toContain('yes (`deleteFiatAccount`)');
    expect(doc).toContain('yes (`createFiatWithdrawal`)');
    for (const id of ['listVasps', 'getVasp', 'updateCryptoDeposit', 'rejectCryptoDeposit'])
      expect(doc).toContain(`yes (\`${id}\`)`);
    const listed = doc.match(/yes \(`\w+`\)/g) ?? [];
    expect(new Set(listed).size).toBe(Object.keys(operations).length);
  });
});
