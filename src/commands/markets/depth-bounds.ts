// The bounds of coinop book --depth and coinop trades --limit, for the declarations (help) and the checks alike.
export const BOOK_DEPTH_DEFAULT = 10;
export const BOOK_DEPTH_MAX = 1000;
export const TRADES_LIMIT_DEFAULT = 20;
/** The hosted service lists at most its 2000 most recent executions. */
export const TRADES_LIMIT_MAX = 2000;
