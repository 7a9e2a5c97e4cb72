import { z } from 'zod';

export const signInBody = z
  .strictObject({
    credential: z.string().min(1).max(8192).optional().describe('An operator API key or JWT (not an access token)'),
    code: z.string().min(1).max(128).optional().describe('A one-time login code from `agent-gateway ui`'),
  })
  .refine((body) => (body.credential === undefined) !== (body.code === undefined), {
    message: 'send exactly one of credential and code',
  });

export const sessionView = z.object({
  method: z.enum(['api_key', 'jwt']).describe('How the operator signed in'),
  subject: z.string().describe('The JWT subject, or key_<fingerprint> for an API key'),
});

export const signedOut = z.object({ signed_in: z.literal(false) });

export const loginCode = z.object({
  code: z.string().describe('Exchanged once for the service_auth cookie'),
  login_url: z.string().describe('Open it in a browser to sign in to the dashboard'),
  expires_at: z.string(),
});
