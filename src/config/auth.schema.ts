import { z } from 'zod';

export const authSchema = z.strictObject({
  api_keys: z.array(z.string().min(8, 'API keys must be at least 8 characters')).default([]),
  jwt: z
    .strictObject({
      secret: z.string().min(16, 'the JWT secret must be at least 16 characters'),
      issuer: z.string().optional(),
      audience: z.string().optional(),
    })
    .optional(),
  tokens: z
    .strictObject({
      default_expires_in_seconds: z.number().int().positive().default(86_400),
      max_expires_in_seconds: z.number().int().positive().default(30 * 86_400),
    })
    .default({ default_expires_in_seconds: 86_400, max_expires_in_seconds: 30 * 86_400 }),
});

export type AuthConfig = z.infer<typeof authSchema>;
