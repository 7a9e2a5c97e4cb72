import { describe, expect, it } from 'vitest';
import { isHostAllowed } from '../../src/tools/http/host-allow-list.js';

describe('isHostAllowed', () => {
  const allowed = (url: string, hosts: string[]) => isHostAllowed(new URL(url), hosts);

  it('allows nothing when the list is empty', () => {
    expect(allowed('https://example.com/', [])).toBe(false);
  });

  it('matches a host name on any port, case-insensitively', () => {
    expect(allowed('https://API.example.com/x', ['api.example.com'])).toBe(true);
    expect(allowed('http://api.example.com:8080/x', ['api.example.com'])).toBe(true);
    expect(allowed('https://example.com/', ['api.example.com'])).toBe(false);
  });

  it('matches host:port entries on that port only', () => {
    expect(allowed('http://127.0.0.1:8080/', ['127.0.0.1:8080'])).toBe(true);
    expect(allowed('http://127.0.0.1:8081/', ['127.0.0.1:8080'])).toBe(false);
  });

  it('matches subdomains for *.domain but not the domain or look-alikes', () => {
    expect(allowed('https://a.b.example.com/', ['*.example.com'])).toBe(true);
    expect(allowed('https://example.com/', ['*.example.com'])).toBe(false);
    expect(allowed('https://evilexample.com/', ['*.example.com'])).toBe(false);
  });

  it('allows every host for "*"', () => {
    expect(allowed('https://anything.test/', ['*'])).toBe(true);
  });
});
