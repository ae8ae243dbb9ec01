// Who an entry names: the operating system's user running coinop, and the coinop context, its client id, its
// environment and the service that answered (never a secret or a token); through coinop mcp, the agent too.
import { userInfo } from 'node:os';
import type { AuditWho } from './entry.js';

/** What a command knows of who it acts as: its coinop context and, once connected, the service. */
export interface Actor {
  profile?: string;
  environment?: string;
  clientId?: string;
  serviceId?: string;
  /** The MCP client acting through coinop mcp: "name version". */
  agent?: string;
}

/** The user's login name; the environment's USER, or the uid, where the system has no name for it. */
export function osUser(env: Record<string, string | undefined>): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER || env.LOGNAME || `uid ${process.getuid?.() ?? '?'}`;
  }
}

export function whoOf(user: string, actor: Actor): AuditWho {
  return {
    os_user: user,
    ...(actor.clientId !== undefined ? { client_id: actor.clientId } : {}),
    ...(actor.profile !== undefined ? { profile: actor.profile } : {}),
    ...(actor.environment !== undefined ? { environment: actor.environment } : {}),
    ...(actor.serviceId !== undefined ? { service_id: actor.serviceId } : {}),
    ...(actor.agent !== undefined ? { agent: actor.agent } : {}),
  };
}
