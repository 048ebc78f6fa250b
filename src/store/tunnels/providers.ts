import type { TunnelProviderName } from '../../core/model/tunnel.js';
import { cloudflared } from './cloudflared.js';
import { ngrok } from './ngrok.js';
import type { TunnelProvider } from './provider.js';

export type { TunnelProvider } from './provider.js';
export { stopTree } from './process-tree.js';

/** Every tunnel provider, by name (a third is one more module and one more line here). */
export const TUNNEL_PROVIDER_MODULES: Record<TunnelProviderName, TunnelProvider> = { cloudflared, ngrok };
