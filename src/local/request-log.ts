// Recent requests of this process, with their status and why a request was rejected (/_local/journal).

export interface RequestLogEntry {
  time: string;
  method: string;
  url: string;
  status: number;
  duration_ms: number;
  client_id?: string;
  /** The problem detail (or title) of a rejected request, or the fault that was injected. */
  reason?: string;
  fault?: string;
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  constructor(private readonly size: () => number) {}

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    const max = this.size();
    if (this.entries.length > max * 2) this.entries = this.entries.slice(-max);
  }

  /** Most recent last. */
  recent(limit?: number): RequestLogEntry[] {
    const max = Math.min(this.size(), limit ?? Infinity);
    return this.entries.slice(-max);
  }

  clear(): void {
    this.entries = [];
  }
}
