export { parseCurl, parseQueryString, type ParsedCurl } from './parse.js';
export { tokenize, detectDialect, describeOffset, type Dialect, type Token } from './tokenize.js';
export { SUPPORTED_ACTION_FLAGS } from './options.js';
