import { describe, expect, it } from 'vitest';
import { tenantUrl } from './tenant-url';

const at = (url: string) => new URL(url);

describe('tenantUrl', () => {
  it('is the current origin when the domain is this host', () => {
    expect(tenantUrl('demo.localhost', at('http://demo.localhost:8080/home'))).toBe(
      'http://demo.localhost:8080',
    );
    expect(tenantUrl('Demo.Example.com', at('https://demo.example.com/home'))).toBe(
      'https://demo.example.com',
    );
  });

  it("keeps this page's scheme and port for another domain", () => {
    expect(tenantUrl('acme.localhost', at('http://demo.localhost:8080/home'))).toBe(
      'http://acme.localhost:8080',
    );
    expect(tenantUrl('acme.example.com', at('https://demo.example.com/home'))).toBe(
      'https://acme.example.com',
    );
  });
});
