// The audit trail for coinop mcp: the commands' own (ctx.audit, src/cli/audit.ts), each entry naming the MCP client
// that asked (who.agent) and the service that answered once the server has connected.
import type { Invocation, Connection } from '../../cli/invocation.js';
import type { AuditPort } from '../../mcp/ports.js';

export function auditPort(ctx: Invocation, connection: () => Promise<Connection> | undefined): AuditPort {
  // The connection when it was made (a call that failed to connect is recorded without the service).
  const conn = async () => {
    const c = connection();
    return c ? c.catch(() => undefined) : undefined;
  };
  return {
    async attempt(event, agent) {
      ctx.agent = agent;
      return ctx.audit.attempt(event, await conn());
    },
    async note(event, agent) {
      ctx.agent = agent;
      await ctx.audit.note(event, await conn());
    },
  };
}
