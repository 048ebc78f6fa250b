import { MockdevError } from '../../core/errors.js';
import type { ActivationAnswer, LicenseService, LicenseServiceOptions } from '../../core/ports.js';

/**
 * The license service over HTTP (docs/license.md): `POST {service}/v1/activations` `{ email }`
 * asks for an activation link, `POST {service}/v1/trials` `{ email }` for a trial's (409: the
 * address had its trial); `GET {service}/v1/activations?email=…` answers `{ status: "pending" }`
 * or `{ status: "confirmed", key }` (404: nothing was asked for that address, or its link
 * expired). Redirects are refused.
 */

/** How long one request to the license service may take unless the caller says otherwise. */
export const LICENSE_SERVICE_TIMEOUT_MS = 10_000;

const badAnswer = (url: string) =>
  new MockdevError(
    'IO_ERROR',
    `The license service at ${url} answered something that is not the expected JSON`,
    { hint: 'Check MOCKDEV_LICENSE_URL points at a mockdev license service' },
  );

/** The errors some statuses mean for one request (the protocol's refusals). */
type Refusals = Partial<Record<number, () => MockdevError>>;

/**
 * One request; every failure is IO_ERROR naming the URL, but for the statuses `refusals` words.
 * Resolves with the 2xx response.
 */
async function call(
  url: string,
  init: RequestInit,
  options: LicenseServiceOptions,
  refusals: Refusals = {},
): Promise<Response> {
  const timeoutMs = options.timeoutMs ?? LICENSE_SERVICE_TIMEOUT_MS;
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    const why =
      err.name === 'TimeoutError' || err.name === 'AbortError'
        ? `it did not answer within ${timeoutMs / 1000} s`
        : `it could not be reached (${err.cause?.code ?? err.cause?.message ?? err.message})`;
    throw new MockdevError('IO_ERROR', `The license service at ${url} failed: ${why}`, {
      hint: 'Check your network and MOCKDEV_LICENSE_URL, then try again',
    });
  }
  if (res.status < 200 || res.status > 299) {
    await res.body?.cancel().catch(() => undefined);
    const refusal = refusals[res.status];
    if (refusal) throw refusal();
    if (res.status === 429) {
      throw new MockdevError(
        'IO_ERROR',
        `The license service at ${url} asks to wait before it sends another e-mail`,
        {
          hint: 'Try again in a minute',
        },
      );
    }
    throw new MockdevError('IO_ERROR', `The license service at ${url} answered HTTP ${res.status}`, {
      hint: res.status >= 500 ? 'Try again later' : 'Check the e-mail address and MOCKDEV_LICENSE_URL',
    });
  }
  return res;
}

/** POSTs `{ email }`; the answer's body is not read. */
async function postEmail(
  url: string,
  email: string,
  options: LicenseServiceOptions,
  refusals: Refusals = {},
) {
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  };
  const res = await call(url, init, options, refusals);
  await res.body?.cancel().catch(() => undefined);
}

export class HttpLicenseService implements LicenseService {
  async requestActivation(
    service: string,
    email: string,
    options: LicenseServiceOptions = {},
  ): Promise<void> {
    await postEmail(`${service}/v1/activations`, email, options);
  }

  async requestTrial(service: string, email: string, options: LicenseServiceOptions = {}): Promise<void> {
    await postEmail(`${service}/v1/trials`, email, options, {
      409: () =>
        new MockdevError(
          'CONFLICT',
          `${email} already had its trial: the license service at ${service} gives one per e-mail address`,
          {
            hint: (say) => `Buy a license, then ${say.action('activateLicense')}`,
          },
        ),
    });
  }

  async checkActivation(
    service: string,
    email: string,
    options: LicenseServiceOptions = {},
  ): Promise<ActivationAnswer> {
    const url = `${service}/v1/activations?email=${encodeURIComponent(email)}`;
    const res = await call(url, { method: 'GET', headers: { accept: 'application/json' } }, options, {
      404: () =>
        new MockdevError(
          'NOT_FOUND',
          `The license service at ${service} has no activation or trial asked for ${email} (none was, or its link expired)`,
          {
            hint: (say) =>
              `Open the link within a day of asking; to ask again, ${say.action('activateLicense')}`,
          },
        ),
    });
    let answer: { status?: unknown; key?: unknown } | null;
    try {
      answer = (await res.json()) as typeof answer;
    } catch {
      // The answer's text is not quoted: it may hold a key.
      throw badAnswer(url);
    }
    if (answer?.status === 'pending') return { status: 'pending' };
    if (answer?.status === 'confirmed' && typeof answer.key === 'string')
      return { status: 'confirmed', key: answer.key };
    throw badAnswer(url);
  }
}
