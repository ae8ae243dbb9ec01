// The audit trail for coinop mcp: the commands' own (ctx.audit, src/cli/audit.ts), each entry naming the MCP client
// that asked (who.agent) and the service that answered once the server has connected.
import type { Connection } from '../../cli/invocation.js';
import type { Ports } from '../../cli/ports.js';
import type { AuditPort } from '../../mcp/ports.js';

export function auditPort(
  ctx: Pick<Ports, 'audit' | 'agent'>,
  connection: () => Promise<Connection> | undefined,
): AuditPort {
  // The connection when it was made (a call that failed to connect is recorded without the service).
  const conn = async () => {
    const c = connection();
    return c ? c.catch(() => undefined) : undefined;
  };
  return {
    async attempt(event, agent) {
      ctx.agent.actingFor(agent);
      return ctx.audit.attempt(event, await conn());
    },
    async note(event, agent) {
      ctx.agent.actingFor(agent);
      await ctx.audit.note(event, await conn());
    },
  };
}
