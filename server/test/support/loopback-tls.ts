/**
 * A self-signed certificate for 127.0.0.1 and localhost (P-256, valid until 2126), for tests that
 * stand up an HTTPS peer on loopback: trust it with `new https.Agent({ ca: LOOPBACK_TLS.cert })`.
 * It guards nothing; its key is public on purpose.
 */
export const LOOPBACK_TLS = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgRoyixXVys1FfXtbd
k1wOdoVlA8lEV5buJJLkf3DvQLGhRANCAARGMDlZ5etXe5zLmr5lVWnl35qGZlv2
csaSu0PIL23HVrW6hyTirBnBZcxmAIF9EbkoHWP6bDIDqUv8VIgK0MtN
-----END PRIVATE KEY-----
`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIURklA5kDHe8nFIq29bjNectZ5htowCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyODA0MzgyOVoYDzIxMjYxMTA0
MDQzODI5WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARGMDlZ5etXe5zLmr5lVWnl35qGZlv2csaSu0PIL23HVrW6hyTirBnB
ZcxmAIF9EbkoHWP6bDIDqUv8VIgK0MtNo28wbTAdBgNVHQ4EFgQUMENA9LzCNbAh
dHtRVVfRpz/UrXowHwYDVR0jBBgwFoAUMENA9LzCNbAhdHtRVVfRpz/UrXowDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZI
zj0EAwIDSAAwRQIgVpL7yHmNfXA9iFfhb9e0paEViUWcbsH9jaune/3qpcwCIQDs
VaBm+5uEzDbJrkaZnsuHPEQogWHKxDnpdQxXpvN/sQ==
-----END CERTIFICATE-----
`,
} as const;
