// What a tool of the MCP server is, and what one call of it may use: the connection (made on first use), the notes
// it adds to its answer, and the server's settings, gates and ports.
import type { ServiceClient } from '../client/service-client.js';
import type { CataloguePolicy } from '../client/catalogue-policy.js';
import type { ResolvedContext } from '../config/context.js';
import type { AuditEvent } from '../audit/entry.js';
import type { AuditAttempt, AuditPort, BatchPort, PolicyPort } from './ports.js';
import type { ObjectSchema } from './schema.js';
import type { MoneyGate } from '../gate/gate.js';

/** What the server reaches the service through: the API client of the coinop context. */
export interface McpConnection {
  client: ServiceClient;
  /** Which service answers (`local:<instance id>`, or `<environment>:<base url>`). */
  serviceId: string;
}

/** Everything the server is given by `coinop mcp`: the context, how to connect, the gates, the ports. */
export interface ServerDeps {
  version: string;
  context: ResolvedContext;
  /** The connection for this context, with the server's catalogue policy (notes go to the call that made them). */
  connect(catalogue: CataloguePolicy): Promise<McpConnection>;
  /** --allow-writes: a confirmed call of a gated tool may send. */
  allowWrites: boolean;
  /** --allow-production: ... and in production too. */
  allowProduction: boolean;
  /** coinop's data directory: where a batch is staged while it is checked. */
  dataDir: string;
  /** coinop's configuration directory (secrets, tokens): never read as a batch file. */
  configDir: string;
  now(): number;
  /** A line for the server's log (stderr; never stdout, which carries the protocol). */
  log(line: string): void;
  policy?: PolicyPort;
  audit?: AuditPort;
  /**
   * The money gate (src/gate) every write goes through (withdraw, internal_transfer, deposit_address_create), over the
   * server's connection; `agent` names the MCP client in its audit entries. Without one, writes cannot be sent.
   */
  gate?(tool: string, agent: string): Promise<MoneyGate>;
  /** How a confirmed batch is sent (coinop withdraw batch); without one, withdraw_batch only previews. */
  batch?: BatchPort;
}

/** One call of a tool. */
export interface Call {
  deps: ServerDeps;
  tool: string;
  /** The MCP client as its handshake named it, and as the audit trail names it ("name version"). */
  client: { name: string; version: string };
  agent: string;
  /** How the catalogue's rules count for this service (refused against the local service, else noted). */
  catalogue: CataloguePolicy;
  /** The connection, made on the first call that needs one. */
  conn(): Promise<McpConnection>;
  /** A line for the answer besides its data (a catalogue note, what a preview leaves to do). */
  note(text: string): void;
  /**
   * Records, before a request that moves money leaves, the attempt in the audit trail (which throws when it cannot be
   * written: then nothing is sent); its handle records the outcome.
   */
  attempt(event: Omit<AuditEvent, 'outcome'>): Promise<AuditAttempt>;
  /** Records what happened in the audit trail (a tool call's end, a fee quote); never throws. */
  record(event: AuditEvent): Promise<void>;
}

/** What a call answers: its structured content (matching the tool's output schema) and what the trail records. */
export interface Answer {
  structured: Record<string, unknown>;
  outcome: 'preview' | 'sent' | 'already_submitted' | 'read';
  ref_id?: string;
  transfer_id?: string;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  input: ObjectSchema;
  output: ObjectSchema;
  /** Moves money or creates a resource: previews by default, sends only through the gates. */
  gated?: boolean;
  run(args: Record<string, unknown>, call: Call): Promise<Answer>;
}
