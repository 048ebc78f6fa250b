/**
 * The curl flags mockdev knows. `value: true` means the flag takes an argument. Flags with
 * an `as` key change the request; the others are accepted and ignored (they shape how curl
 * runs: output files, timeouts, TLS, redirects …, not what it sends).
 */

export type Action =
  | 'request'
  | 'header'
  | 'data'
  | 'data-raw'
  | 'data-binary'
  | 'data-urlencode'
  | 'json'
  | 'form'
  | 'form-string'
  | 'user'
  | 'cookie'
  | 'user-agent'
  | 'referer'
  | 'url'
  | 'get'
  | 'head'
  | 'upload-file'
  | 'oauth2-bearer'
  | 'url-query'
  | 'request-target'
  | 'next';

export interface FlagSpec {
  long: string;
  value: boolean;
  as?: Action;
}

const ACTION_FLAGS: [string, string | null, boolean, Action][] = [
  ['request', 'X', true, 'request'],
  ['header', 'H', true, 'header'],
  ['data', 'd', true, 'data'],
  ['data-ascii', null, true, 'data'],
  ['data-raw', null, true, 'data-raw'],
  ['data-binary', null, true, 'data-binary'],
  ['data-urlencode', null, true, 'data-urlencode'],
  ['json', null, true, 'json'],
  ['form', 'F', true, 'form'],
  ['form-string', null, true, 'form-string'],
  ['user', 'u', true, 'user'],
  ['cookie', 'b', true, 'cookie'],
  ['user-agent', 'A', true, 'user-agent'],
  ['referer', 'e', true, 'referer'],
  ['url', null, true, 'url'],
  ['get', 'G', false, 'get'],
  ['head', 'I', false, 'head'],
  ['upload-file', 'T', true, 'upload-file'],
  ['oauth2-bearer', null, true, 'oauth2-bearer'],
  ['url-query', null, true, 'url-query'],
  ['request-target', null, true, 'request-target'],
  ['next', ':', false, 'next'],
];

/** Accepted and ignored; `[long, short, takesValue]`. */
const IGNORED_FLAGS: [string, string | null, boolean][] = [
  ['compressed', null, false],
  ['silent', 's', false],
  ['show-error', 'S', false],
  ['location', 'L', false],
  ['location-trusted', null, false],
  ['insecure', 'k', false],
  ['verbose', 'v', false],
  ['include', 'i', false],
  ['fail', 'f', false],
  ['fail-with-body', null, false],
  ['fail-early', null, false],
  ['no-buffer', 'N', false],
  ['http1.0', '0', false],
  ['http1.1', null, false],
  ['http2', null, false],
  ['http2-prior-knowledge', null, false],
  ['http3', null, false],
  ['http3-only', null, false],
  ['tlsv1', '1', false],
  ['tlsv1.0', null, false],
  ['tlsv1.1', null, false],
  ['tlsv1.2', null, false],
  ['tlsv1.3', null, false],
  ['sslv2', '2', false],
  ['sslv3', '3', false],
  ['ipv4', '4', false],
  ['ipv6', '6', false],
  ['globoff', 'g', false],
  ['progress-bar', '#', false],
  ['netrc', 'n', false],
  ['netrc-optional', null, false],
  ['junk-session-cookies', 'j', false],
  ['remote-name', 'O', false],
  ['remote-name-all', null, false],
  ['remote-header-name', 'J', false],
  ['remote-time', 'R', false],
  ['create-dirs', null, false],
  ['list-only', 'l', false],
  ['use-ascii', 'B', false],
  ['append', 'a', false],
  ['parallel', 'Z', false],
  ['disable', 'q', false],
  ['manual', 'M', false],
  ['no-progress-meter', null, false],
  ['no-keepalive', null, false],
  ['no-sessionid', null, false],
  ['tcp-nodelay', null, false],
  ['tcp-fastopen', null, false],
  ['false-start', null, false],
  ['ssl', null, false],
  ['ssl-reqd', null, false],
  ['ssl-no-revoke', null, false],
  ['ssl-allow-beast', null, false],
  ['proxy-insecure', null, false],
  ['proxytunnel', 'p', false],
  ['suppress-connect-headers', null, false],
  ['styled-output', null, false],
  ['xattr', null, false],
  ['raw', null, false],
  ['path-as-is', null, false],
  ['tr-encoding', null, false],
  ['basic', null, false],
  ['digest', null, false],
  ['ntlm', null, false],
  ['ntlm-wb', null, false],
  ['negotiate', null, false],
  ['anyauth', null, false],
  ['cert-status', null, false],
  ['post301', null, false],
  ['post302', null, false],
  ['post303', null, false],
  ['ignore-content-length', null, false],
  ['crlf', null, false],
  ['no-alpn', null, false],
  ['no-npn', null, false],
  ['alt-svc', null, true],
  ['output', 'o', true],
  ['output-dir', null, true],
  ['max-time', 'm', true],
  ['connect-timeout', null, true],
  ['write-out', 'w', true],
  ['retry', null, true],
  ['retry-delay', null, true],
  ['retry-max-time', null, true],
  ['retry-connrefused', null, false],
  ['retry-all-errors', null, false],
  ['proxy', 'x', true],
  ['proxy-user', 'U', true],
  ['noproxy', null, true],
  ['socks5', null, true],
  ['socks5-hostname', null, true],
  ['preproxy', null, true],
  ['cacert', null, true],
  ['capath', null, true],
  ['cert', 'E', true],
  ['cert-type', null, true],
  ['key', null, true],
  ['key-type', null, true],
  ['pass', null, true],
  ['ciphers', null, true],
  ['tls-max', null, true],
  ['pinnedpubkey', null, true],
  ['crlfile', null, true],
  ['cookie-jar', 'c', true],
  ['dump-header', 'D', true],
  ['resolve', null, true],
  ['connect-to', null, true],
  ['interface', null, true],
  ['local-port', null, true],
  ['dns-servers', null, true],
  ['limit-rate', null, true],
  ['speed-limit', 'Y', true],
  ['speed-time', 'y', true],
  ['time-cond', 'z', true],
  ['max-redirs', null, true],
  ['max-filesize', null, true],
  ['range', 'r', true],
  ['continue-at', 'C', true],
  ['unix-socket', null, true],
  ['abstract-unix-socket', null, true],
  ['trace', null, true],
  ['trace-ascii', null, true],
  ['trace-time', null, false],
  ['stderr', null, true],
  ['expect100-timeout', null, true],
  ['happy-eyeballs-timeout-ms', null, true],
  ['keepalive-time', null, true],
  ['quote', 'Q', true],
  ['telnet-option', 't', true],
  ['ftp-port', 'P', true],
  ['aws-sigv4', null, true],
  ['variable', null, true],
  ['config', 'K', true],
  ['delegation', null, true],
  ['sasl-authzid', null, true],
  ['login-options', null, true],
  ['proto', null, true],
  ['proto-redir', null, true],
  ['proto-default', null, true],
  ['random-file', null, true],
  ['egd-file', null, true],
  ['hostpubmd5', null, true],
  ['hostpubsha256', null, true],
  ['mail-from', null, true],
  ['mail-rcpt', null, true],
  ['service-name', null, true],
  ['happy-eyeballs-timeout', null, true],
];

export const LONG_FLAGS = new Map<string, FlagSpec>();
export const SHORT_FLAGS = new Map<string, FlagSpec>();

for (const [long, short, value, as] of ACTION_FLAGS) {
  const spec: FlagSpec = { long, value, as };
  LONG_FLAGS.set(long, spec);
  if (short) SHORT_FLAGS.set(short, spec);
}
for (const [long, short, value] of IGNORED_FLAGS) {
  const spec: FlagSpec = { long, value };
  LONG_FLAGS.set(long, spec);
  if (short) SHORT_FLAGS.set(short, spec);
}

/** The flags that change the captured request, for the docs and help. */
export const SUPPORTED_ACTION_FLAGS = ACTION_FLAGS.map(([long, short]) =>
  short ? `-${short}/--${long}` : `--${long}`,
);
