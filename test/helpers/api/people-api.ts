/**
 * The marketplace's people for tests (contract section 7): a shop service
 * with an administrator account and an API key, customers registered and
 * logged in, and their credentials as headers.
 */
import type { ExecutionContext } from 'ava';
import { call, dataOf, ownService, type ApiResponse } from './product-api.js';
import type { ServiceUnderTest } from '../service/service.js';
import { apiKeyAuth, bearerAuth, login, type CredentialHeaders } from './auth-api.js';

export const ADMIN_NAME = 'root';
export const ADMIN_PASSWORD = 'Root-Pass-9f8e7d';
export const API_KEY = 'Ops-Key-1a2b3c4d5e';

/** MARKETPLACE=1 with one AUTH_USERS administrator and one API key. */
/**
 * The shop as these tests run it. PASSWORD_HASH_COST=10 makes each customer's
 * scrypt 16 times cheaper than the default 14: the suite registers hundreds
 * of customers, and the cost is a setting, tested at its default elsewhere.
 */
export const SHOP_ENV: Readonly<Record<string, string>> = { MARKETPLACE: '1', AUTH_USERS: `${ADMIN_NAME}:${ADMIN_PASSWORD}`, API_KEYS: `ops=${API_KEY}`, PASSWORD_HASH_COST: '10' };

export const shopService = (t: ExecutionContext, env: Readonly<Record<string, string>> = {}): Promise<ServiceUnderTest> => ownService(t, { env: { ...SHOP_ENV, ...env } });

/** A user as the service shows it. */
export interface User {
  readonly id: number;
  readonly email: string;
  readonly name: string;
  readonly role: string;
  readonly createdAt: string;
}

/** A registered, logged-in customer. */
export interface Customer {
  readonly user: User;
  readonly password: string;
  readonly token: string;
  readonly auth: CredentialHeaders;
}

export const register = (service: ServiceUnderTest, body: unknown): Promise<ApiResponse> => call(service, 'POST', '/users/register', { json: body });

let serial = 0;

/** Registers a customer (201 or throws) and logs them in. */
export async function newCustomer(service: ServiceUnderTest, name = 'Customer'): Promise<Customer> {
  serial += 1;
  const password = `Pass-${serial}-${name}-xyz`;
  const email = `${name.toLowerCase().replaceAll(/[^a-z0-9]/g, '')}${serial}@shop.example`;
  const response = await register(service, { email, password, name });
  if (response.status !== 201) throw new Error(`POST /users/register answered ${response.status}: ${response.text}`);
  const token = await login(service, email, password);
  return { user: dataOf<User>(response), password, token, auth: bearerAuth(token) };
}

/** The AUTH_USERS administrator's Bearer token. */
export async function adminBearer(service: ServiceUnderTest): Promise<CredentialHeaders> {
  return bearerAuth(await login(service, ADMIN_NAME, ADMIN_PASSWORD));
}

export const adminKey: CredentialHeaders = apiKeyAuth(API_KEY);
