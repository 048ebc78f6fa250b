export * from './fields.js';
export * from './endpoint.js';
export * from './openapi-meta.js';
export * from './project.js';
export * from './settings.js';
export * from './request.js';
export * from './server.js';
export * from './recording.js';
