import { z } from 'zod';

/** USD per million tokens, keyed by `<provider>/<model>`; overrides the bundled price data. */
export const pricingSchema = z
  .record(
    z.string().regex(/^[^/]+\/.+$/, 'pricing keys are "<provider>/<model>"'),
    z.strictObject({
      input_per_mtok: z.number().min(0),
      output_per_mtok: z.number().min(0),
      cached_input_per_mtok: z.number().min(0).optional(),
    }),
  )
  .default({});

export type PricingConfig = z.infer<typeof pricingSchema>;
