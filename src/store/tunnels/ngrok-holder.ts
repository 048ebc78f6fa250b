/**
 * The background process that holds an ngrok tunnel (started detached by ngrok.ts, its output
 * going to the tunnel's log file): opens the session with the token from NGROK_AUTHTOKEN,
 * forwards to 127.0.0.1:MOCKDEV_TUNNEL_PORT, writes `url=<public URL>` and stays until SIGTERM.
 * An entry of its own in the build (dist/cli/tunnel-holder.js).
 */
import { loadNgrok, reason, type LoadedNgrok } from './ngrok-library.js';

export interface HoldInput {
  port: number;
  /** The local server speaks HTTPS: forwarded as https, its certificate (the user's or the local CA's) not checked. */
  https?: boolean;
  authtoken: string;
  load?: () => Promise<LoadedNgrok>;
  write: (line: string) => void;
}

/** Opens the tunnel and says its URL; resolves false (after saying why) when it cannot. */
export async function holdTunnel(input: HoldInput): Promise<boolean> {
  let loaded: LoadedNgrok;
  try {
    loaded = await (input.load ?? loadNgrok)();
  } catch (e) {
    input.write(`ngrok is not available on this platform: ${reason(e)}`);
    return false;
  }
  try {
    const listener = await loaded.library.forward({
      addr: input.https ? `https://127.0.0.1:${input.port}` : `127.0.0.1:${input.port}`,
      authtoken: input.authtoken,
      ...(input.https ? { verify_upstream_tls: false } : {}),
    });
    const url = listener.url();
    if (!url) {
      input.write('ngrok opened no public URL');
      return false;
    }
    input.write(`url=${url}`);
    return true;
  } catch (e) {
    input.write(`ngrok could not open the tunnel: ${reason(e)}`);
    return false;
  }
}

const runAsHolder = process.env.MOCKDEV_TUNNEL_HOLDER === 'ngrok';
if (runAsHolder) {
  const authtoken = process.env.NGROK_AUTHTOKEN ?? '';
  delete process.env.NGROK_AUTHTOKEN;
  const write = (line: string) => process.stdout.write(`${line}\n`);
  const stop = () => process.exit(0);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  void holdTunnel({
    port: Number(process.env.MOCKDEV_TUNNEL_PORT),
    https: process.env.MOCKDEV_TUNNEL_HTTPS === '1',
    authtoken,
    write,
  }).then((open) => {
    if (!open) process.exit(1);
    // The session lives as long as this process.
    setInterval(() => undefined, 1 << 30);
  });
}
