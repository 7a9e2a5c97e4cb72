import { z } from 'zod';

/** The operator dashboard served at /ui (GATEWAY_UI). Off: /ui and its session routes answer 404. */
export const uiSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
  })
  .default({ enabled: true });

export type UiConfig = z.infer<typeof uiSchema>;
