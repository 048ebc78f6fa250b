import * as z from 'zod';
import {
  activateLicenseKey,
  checkEmailActivation,
  licenseStatus,
  requestEmailActivation,
  requestTrial,
} from '../../app/license.js';
import { LicenseStatusSchema } from '../../core/model/license-status.js';
import { sensitive } from '../../core/validate.js';
import { defineRoute, type Route } from '../route.js';

/**
 * The license, as `mockdev license …`: no answer holds a key, only its masked form. E-mail
 * activation talks to the license service at MOCKDEV_LICENSE_URL (of the `mockdev ui` process).
 */

const TAG = 'License';
const KeySchema = z.object({
  key: sensitive(z.string()).describe('The license key (two base64url parts joined by a dot)'),
});
const EmailSchema = z.object({ email: z.string().describe('The licensee’s e-mail address') });

export const licenseRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/license',
    tag: TAG,
    summary: 'The plan and the activated license, its key masked (as `mockdev license status --json`)',
    response: { schema: LicenseStatusSchema, description: 'The license status' },
    handle: ({ ctx }) => licenseStatus(ctx),
  }),
  defineRoute<z.output<typeof KeySchema>>({
    method: 'POST',
    path: '/license/activate',
    tag: TAG,
    summary: 'Verify a license key offline and store it (as `mockdev license activate`)',
    description: 'A malformed key answers 400; a tampered or expired one 403 LICENSE_INVALID.',
    body: KeySchema,
    response: { schema: LicenseStatusSchema, description: 'The license now active' },
    handle: ({ ctx, body }) => activateLicenseKey(ctx, body.key),
  }),
  defineRoute<z.output<typeof EmailSchema>>({
    method: 'POST',
    path: '/license/activate-email',
    tag: TAG,
    summary: 'Ask the license service to e-mail an activation link (as `mockdev license activate-email`)',
    body: EmailSchema,
    response: {
      status: 202,
      schema: z.object({ email: z.string(), service: z.string().describe('The license service asked') }),
      description: 'The e-mail is on its way; then call POST /api/v1/license/check',
    },
    handle: ({ ctx, body }) => requestEmailActivation(ctx, body.email),
  }),
  defineRoute<z.output<typeof EmailSchema>>({
    method: 'POST',
    path: '/license/trial',
    tag: TAG,
    summary:
      'Ask the license service for a trial of Pro, one per e-mail address: it e-mails a link that starts it (as `mockdev license trial`)',
    description: 'An address that had its trial answers 409 CONFLICT.',
    body: EmailSchema,
    response: {
      status: 202,
      schema: z.object({
        email: z.string(),
        service: z.string().describe('The license service asked'),
        days: z.number().int().describe('How long the trial lasts'),
      }),
      description:
        'The e-mail is on its way; once its link is opened, POST /api/v1/license/check stores the trial',
    },
    handle: ({ ctx, body }) => requestTrial(ctx, body.email),
  }),
  defineRoute<z.output<typeof EmailSchema>>({
    method: 'POST',
    path: '/license/check',
    tag: TAG,
    summary:
      'Whether the e-mail activation (or trial) was confirmed; once it is, the key is verified and stored (as `mockdev license check`)',
    body: EmailSchema,
    response: {
      schema: z.discriminatedUnion('status', [
        z.object({ status: z.literal('pending'), email: z.string() }),
        z.object({ status: z.literal('confirmed'), email: z.string(), license: LicenseStatusSchema }),
      ]),
      description: 'pending, or confirmed with the license now active',
    },
    handle: ({ ctx, body }) => checkEmailActivation(ctx, body.email),
  }),
];
