// One word per meaning: "context" is coinop's saved endpoints and credentials, "profile" only the service's. A
// declaration named for a profile that holds a coinop context (typed ResolvedContext, or set from a `.context()`)
// fails, and so does any of the names the rename retired coming back in code or docs (a branch older than it,
// merged). Stored keys and JSON fields keep the old word (config.json's `profiles`, an audit entry's `who.profile`):
// they are strings, not declarations, and are not checked here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { modules, parse, ROOT, walk } from './support.js';

/** Names the rename retired: what each meant is now called by the word after the arrow in the test's message. */
const RETIRED: Record<string, string> = {
  profilePolicy: 'contextPolicy',
  ProfileSettings: 'ContextSettings',
  UnknownProfileError: 'UnknownContextError',
  ProfileOverrideError: 'ContextOverrideError',
  resolveServiceProfile: 'resolveContext',
  activeProfileName: 'activeContextName',
  saveProfile: 'saveContext',
  removeProfile: 'removeContext',
  renameProfile: 'renameContext',
  BatchApi: 'BatchService',
  clientBatchApi: 'clientBatchService',
};

type Declaration = ts.VariableDeclaration | ts.ParameterDeclaration | ts.PropertySignature | ts.PropertyDeclaration;

function isDeclaration(node: ts.Node): node is Declaration {
  return (
    ts.isVariableDeclaration(node) ||
    ts.isParameter(node) ||
    ts.isPropertySignature(node) ||
    ts.isPropertyDeclaration(node)
  );
}

/** `name@line` of each declaration named for a profile that holds a coinop context, and of each retired name. */
function misnamed(sf: ts.SourceFile): string[] {
  const found: string[] = [];
  const at = (node: ts.Node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  walk(sf, (node) => {
    if (ts.isIdentifier(node) && Object.hasOwn(RETIRED, node.text))
      found.push(`${node.text}@${at(node)} (now ${RETIRED[node.text]})`);
    if (!isDeclaration(node) || !ts.isIdentifier(node.name) || !/profile/i.test(node.name.text)) return;
    const type = node.type?.getText(sf) ?? '';
    const initializer = 'initializer' in node && node.initializer ? node.initializer.getText(sf) : '';
    if (/\bResolvedContext\b/.test(type) || /\.context(\(\))?$/.test(initializer))
      found.push(`${node.name.text}@${at(node)} (a coinop context)`);
  });
  return found;
}

describe('words', () => {
  it('finds a profile that holds a context, and a retired name; not the service profile', () => {
    const text = [
      'function f(profile: ResolvedContext, profileId: string) {}',
      'const profile = ctx.service.context();',
      'const other = conn.context;',
      'interface I { profile: string; context: ResolvedContext }',
      'await contextPolicy(ctx); await profilePolicy(ctx);',
      'const serviceProfile = await client.profile(id);',
    ].join('\n');
    expect(misnamed(parse('x.ts', text))).toEqual([
      'profile@1 (a coinop context)',
      'profile@2 (a coinop context)',
      'profilePolicy@5 (now contextPolicy)',
    ]);
  });

  it('no declaration in src or test names a coinop context a profile, and no retired name is back', () => {
    const bad = [...modules('src'), ...modules('test')]
      .filter((m) => m.file !== 'test/structure/words.test.ts')
      .flatMap((m) => misnamed(m.source).map((found) => `${m.file}: ${found}`));
    expect(bad).toEqual([]);
  });

  it('the README and docs/ name no retired name either', () => {
    const pages = ['README.md', 'src/local/README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)];
    const bad = pages
      .filter((page) => page.endsWith('.md'))
      .flatMap((page) => {
        const text = readFileSync(join(ROOT, page), 'utf8');
        return Object.keys(RETIRED)
          .filter((name) => new RegExp(`\\b${name}\\b`).test(text))
          .map((name) => `${page}: ${name} (now ${RETIRED[name]})`);
      });
    expect(bad).toEqual([]);
  });
});

/**
 * "profile" in a phrase that means the service's: its id (profile id, --profile-id, profile_id), "service's profile",
 * "service profile", coinop profiles (the service's list), a profile's balance, a recipient or source profile.
 */
const SERVICE_PROFILE =
  /service'?s? profiles?|profiles? (id|ids|balances?|nickname)\b|profile[-_]ids?|coinop profiles|(recipient|source|another|receiving|sending|default|each|the service's) profiles?|a profile of|\bprofiles\/|\/profiles|coinop profile is now/gi;

/** Each "profile" of `text` not in a phrase of the service's (SERVICE_PROFILE), with a little of what is around it. */
function contextProfiles(text: string): string[] {
  const bare = text.replace(SERVICE_PROFILE, '');
  return [...bare.matchAll(/\bprofiles?\b/gi)].map((m) => bare.slice(Math.max(0, m.index - 30), m.index + 30));
}

/** Where coinop speaks of its contexts: logging in and out, auth status and errors, doctor, the context commands. */
const CONTEXT_SOURCES = [
  'src/commands/auth',
  'src/commands/doctor',
  'src/commands/context',
  'src/client/tokens.ts',
  'src/config/context.ts',
];

describe('"context", not "profile", in what coinop says of its contexts', () => {
  it('the README and docs/ give --context, not its old name --profile (but where the rename is told)', () => {
    const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)];
    const bad = pages
      .filter((page) => page.endsWith('.md') && page !== 'docs/contexts-and-configuration.md')
      .flatMap((page) =>
        readFileSync(join(ROOT, page), 'utf8')
          .split('\n')
          .flatMap((line, i) => (/--profile(?![-\w])|"--profile"/.test(line) ? [`${page}:${i + 1}: ${line}`] : [])),
      );
    expect(bad).toEqual([]);
  });

  it('finds a bare profile and leaves the service profile alone', () => {
    expect(contextProfiles('Logged out of profile "desk"')).toHaveLength(1);
    expect(contextProfiles("the service's profile id; --profile-id; coinop profiles list; profile_id")).toEqual([]);
  });

  it('no message, hint or help text of login, logout, auth, doctor or context calls a context a profile', () => {
    const bad = modules('src')
      .filter((mod) => CONTEXT_SOURCES.some((s) => mod.file === s || mod.file.startsWith(`${s}/`)))
      .flatMap((mod) => {
        const found: string[] = [];
        walk(mod.source, (node) => {
          if (!ts.isStringLiteral(node) && !ts.isNoSubstitutionTemplateLiteral(node) && !ts.isTemplateExpression(node))
            return;
          // The words only, not the expressions of a template; a key or a field's name ('profile', the JSON field
          // kept under its first name) is no sentence.
          const text = ts.isTemplateExpression(node)
            ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ')
            : node.text;
          if (!/\s/.test(text)) return;
          for (const f of contextProfiles(text)) found.push(`${mod.file}: …${f}…`);
        });
        return found;
      });
    expect(bad).toEqual([]);
  });
});
