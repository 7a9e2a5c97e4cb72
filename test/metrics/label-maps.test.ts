import { describe, expect, it } from 'vitest';
import { runWithNativesSyntax } from '../support/v8-maps.js';

const SCRIPT = new URL('./label-maps.script.ts', import.meta.url);

/**
 * Every model call hands prom-client six label objects. Built as `{ ...labels, kind }`, each got a V8 map (hidden
 * class) of its own once observeUsage was optimised (bench/README.md, optimisation log, 2026-11-25). Only V8's
 * natives syntax can tell, so a child process checks.
 */
describe('the label objects of a model call’s metrics', () => {
  it('share one V8 map per metric once observeUsage is optimised', async () => {
    expect(await runWithNativesSyntax(SCRIPT)).toEqual({
      'agent_gateway_tokens_total agent,model,kind': 0,
      'agent_gateway_cost_usd_total agent,model': 0,
      'agent_gateway_model_calls_total agent,model,status': 0,
      'gen_ai_client_operation_duration_seconds agent,model,status': 0,
      'gen_ai_client_token_usage agent,model,token_type': 0,
      'gen_ai_server_time_to_first_token_seconds agent,model': 0,
      'gen_ai_server_time_per_output_token_seconds agent,model': 0,
    });
  });
});
