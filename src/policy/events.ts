// What the policy decides and what approvers sign, as events: each decision (a verdict, with every rule's outcome and
// every approval's key fingerprint), a policy file that blocked a command because it does not load, and each
// approval signed. The CLI hands them to whoever listens (Invocation.onPolicyEvent, src/cli/invocation.ts): the audit
// trail records them.
import type { ApprovalContent } from './approvals.js';
import type { PolicyVerdict } from './evaluate.js';

export type PolicyEvent =
  | {
      type: 'policy-verdict';
      /** The command that asked: withdraw, withdraw batch, transfer internal. */
      command: string;
      dry_run: boolean;
      verdict: PolicyVerdict;
    }
  | {
      type: 'policy-unloadable';
      command: string;
      file: string;
      error: string;
      /** What the refused command was asked to send, as far as its flags say (asset, amount, destination, ref_id). */
      request?: { ref_id?: string; [field: string]: unknown };
    }
  | {
      type: 'approval-signed';
      /** The file approved, and the approval written next to it. */
      file: string;
      approval_file: string;
      key_id: string;
      key: string;
      approved_at: string;
      content: ApprovalContent;
    };
