// The policy file's shape as JSON Schema (TypeBox). Only schemas here: the build replaces this module with their plain
// JSON and compiles a validator for PolicyFile ahead of time (scripts/build.mjs), as it does for the contract's.
// The rules a schema cannot say (time zones, keys, asset names as map keys, required <= keys) are load.ts's.
import { Type, type Static } from '@sinclair/typebox';
import { AMOUNT_PATTERN, NAME_PATTERN } from '../contract/schemas.js';
import { ENVIRONMENTS } from '../config/environments.js';

const Strict = { additionalProperties: false } as const;

const Name = Type.String({ minLength: 1, maxLength: 40, pattern: NAME_PATTERN });
/** An amount: a plain decimal (a YAML number is taken as written, never as a float). */
const Amount = Type.String({ minLength: 1, maxLength: 40, pattern: AMOUNT_PATTERN });
/** Asset name (or "*": every other asset) -> amount. The names are checked by load.ts (a schema names no key well). */
const AmountByAsset = Type.Record(Type.String(), Amount);

export const PolicyKey = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    key: Type.String({ minLength: 1, maxLength: 200 }),
  },
  Strict,
);

/**
 * A destination pinned to its address: the nickname allows exactly this address on this network, whatever the
 * address book says (an address-book write that gives the nickname to another address is refused).
 */
export const PolicyPin = Type.Object(
  {
    nickname: Type.String({ minLength: 1, maxLength: 100 }),
    address: Type.String({ minLength: 1, maxLength: 200 }),
    network: Name,
  },
  Strict,
);

export const PolicyFile = Type.Object(
  {
    version: Type.Optional(Type.Literal(1)),
    destinations: Type.Optional(
      Type.Union([
        Type.Literal('bookmarked_only'),
        Type.Array(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), PolicyPin]), {
          minItems: 1,
          maxItems: 10_000,
        }),
      ]),
    ),
    // true: a crypto withdrawal goes only to an address the service verified as the customer's own (APPROVED).
    verified_only: Type.Optional(Type.Boolean()),
    networks: Type.Optional(Type.Array(Name, { minItems: 1, maxItems: 200 })),
    assets: Type.Optional(Type.Array(Name, { minItems: 1, maxItems: 200 })),
    max_per_withdrawal: Type.Optional(AmountByAsset),
    max_per_24h: Type.Optional(AmountByAsset),
    hours: Type.Optional(
      Type.Union([
        Type.String({ minLength: 1, maxLength: 100 }),
        Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 20 }),
      ]),
    ),
    approvals: Type.Optional(
      Type.Object(
        {
          required: Type.Integer({ minimum: 1, maximum: 20 }),
          keys: Type.Array(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), PolicyKey]), {
            minItems: 1,
            maxItems: 100,
          }),
          above: Type.Optional(AmountByAsset),
          environments: Type.Optional(
            Type.Array(Type.Union(ENVIRONMENTS.map((e) => Type.Literal(e))), { minItems: 1, maxItems: 4 }),
          ),
        },
        Strict,
      ),
    ),
    // At a gateway: a new version of this policy needs `required` approvals by distinct keys (these, else approvals'
    // keys) before it takes effect. No effect on a machine's own policy file (whoever edits the file changes it).
    policy_changes: Type.Optional(
      Type.Object(
        {
          required: Type.Integer({ minimum: 1, maximum: 20 }),
          keys: Type.Optional(
            Type.Array(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), PolicyKey]), {
              minItems: 1,
              maxItems: 100,
            }),
          ),
        },
        Strict,
      ),
    ),
  },
  Strict,
);
export type PolicyFile = Static<typeof PolicyFile>;

/** The top-level fields, for the message about one that is not known (a typo). */
export const POLICY_FIELDS = Object.keys(PolicyFile.properties);
