// The contract: every enumeration, request, resource and rule of the service, shared by client and local service.
export * from './enums.js';
export * from './catalogue.js';
export * from './addresses.js';
export * from './schemas.js';
export * from './problems.js';
export * from './money.js';
export * from './validate.js';
export * from './operations.js';
export * from './suggest.js';
export * from './transfer-filters.js';
