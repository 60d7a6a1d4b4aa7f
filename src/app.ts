import type { ServiceConfig } from './config/load-config.js';
import type { Logger } from './log/logger.js';
import type { StoreClient } from './store/store-client.js';
import type { StoreCommand } from '../workers/store-protocol.js';
import { mergeErrorTables, transportErrors } from './http/http-errors.js';
import { createReplyWriter } from './http/response-writer.js';
import type { AnsweredHook } from './http/exchange.js';
import { accessLog } from './http/access-log.js';
import { createCors } from './http/cors.js';
import { createClientAddress } from './http/client-address.js';
import type { ServiceMetrics } from './metrics/service-metrics.js';
import { metricsRoutes } from './metrics/metrics-routes.js';
import type { DrainState } from './http/drain.js';
import { createRouteRunner } from './http/route-runner.js';
import { createRouter, type RouterListener } from './http/router.js';
import { routeDispatch } from './store/route-dispatch.js';
import { IDEMPOTENCY_ERRORS } from './store/idempotency-errors.js';
import { CLUSTER_ERRORS } from './store/cluster-errors.js';
import { STORAGE_ERRORS } from './store/storage-errors.js';
import type { ClusterStatus } from './store/cluster-status.js';
import type { StorageStatus } from './store/storage-status.js';
import type { Identity } from './auth/identity.js';
import { loadAuthConfig } from './auth/auth-config.js';
import { AUTH_ERRORS } from './auth/auth-errors.js';
import { authRoutes } from './auth/auth-routes.js';
import { LoginThrottle } from './auth/login-throttle.js';
import { HashGate } from './auth/hash-gate.js';
import { PasswordCheck } from './auth/password-check.js';
import { firstOf, type AccountDirectory } from './auth/accounts.js';
import { scryptDecoy, type StoredPassword } from './auth/passwords.js';
import { VerifiedCredentials } from './auth/verified-credentials.js';
import { protectRoutes } from './auth/protect-routes.js';
import { createTokenService } from './auth/tokens.js';
import { healthRoutes } from './health/health-route.js';
import { PRODUCT_ERRORS } from './products/product-errors.js';
import { productRoutes } from './products/product-routes.js';
import { CATALOG_ERRORS } from './products/catalog-errors.js';
import { catalogRoutes } from './products/catalog-routes.js';
import { REVIEW_ERRORS } from './reviews/review-errors.js';
import { reviewRoutes } from './reviews/review-routes.js';
import { PRODUKTE_ERRORS } from './produkte/produkte-errors.js';
import { produkteRoutes } from './produkte/produkte-routes.js';
import { USER_ERRORS } from './users/user-errors.js';
import { userRoutes } from './users/user-routes.js';
import { customerDirectory } from './users/customer-directory.js';
import { RegisterThrottle } from './users/register-throttle.js';
import { ADDRESS_ERRORS } from './addresses/address-errors.js';
import { addressRoutes } from './addresses/address-routes.js';
import { WISHLIST_ERRORS } from './wishlist/wishlist-errors.js';
import { wishlistRoutes } from './wishlist/wishlist-routes.js';
import { CART_ERRORS } from './cart/cart-errors.js';
import { cartRoutes } from './cart/cart-routes.js';
import { ORDER_ERRORS } from './orders/order-errors.js';
import { adminOrderRoutes, orderRoutes } from './orders/order-routes.js';
import { PAYMENT_ERRORS } from './payments/payment-errors.js';
import { paymentRoutes } from './payments/payment-routes.js';
import type { CardProcessor } from './payments/card-processor.js';
import { SimulatedCardProcessor } from './payments/simulated-card-processor.js';
import { OPENAPI_ERRORS } from './openapi/openapi-errors.js';
import { ORDER_EVENT_ERRORS } from './order-events/order-event-errors.js';
import { createOrderEvents, type OrderEvents } from './order-events/order-events.js';
import { apiReference } from './openapi/openapi-routes.js';
import { WEBHOOK_ERRORS } from './webhooks/webhook-errors.js';
import { webhookRoutes } from './webhooks/webhook-routes.js';
import { newSecret } from './webhooks/webhook-signature.js';
import { REFRESH_ERRORS } from './refresh-tokens/refresh-errors.js';
import { RefreshGrants } from './refresh-tokens/refresh-grants.js';
import { refreshRoutes } from './refresh-tokens/refresh-routes.js';

export interface AppParts {
  readonly config: ServiceConfig;
  readonly store: StoreClient;
  readonly log: Logger;
  readonly drain: DrainState;
  /** Present when METRICS is on: GET /metrics and the counting behind it. */
  readonly metrics?: ServiceMetrics;
  /** Who charges cards; the simulated processor unless another is given. */
  readonly cardProcessor?: CardProcessor;
  /** The idempotency fingerprints' key kept under DATA_DIR; random per start without one. */
  readonly claimSecret?: Buffer;
  /** The order event streams, fed by the store client and drained on a stop (service.ts); made here, unfed, when absent. */
  readonly orderEvents?: OrderEvents;
  /** DATABASE_URL: this instance's role and lag, for /health. */
  readonly cluster?: ClusterStatus;
  /** DATA_DIR: whether its disk is full, for /health. */
  readonly storage?: StorageStatus;
}

/** Every domain's error table; a code declared twice stops start-up. */
export function serviceErrors(config: Pick<ServiceConfig, 'strict'>) {
  return mergeErrorTables([
    transportErrors(config.strict ? 400 : 200),
    AUTH_ERRORS,
    PRODUCT_ERRORS,
    CATALOG_ERRORS,
    REVIEW_ERRORS,
    PRODUKTE_ERRORS,
    USER_ERRORS,
    ADDRESS_ERRORS,
    WISHLIST_ERRORS,
    CART_ERRORS,
    ORDER_ERRORS,
    IDEMPOTENCY_ERRORS,
    PAYMENT_ERRORS,
    OPENAPI_ERRORS,
    ORDER_EVENT_ERRORS,
    CLUSTER_ERRORS,
    WEBHOOK_ERRORS,
    REFRESH_ERRORS,
    STORAGE_ERRORS,
  ]);
}

/**
 * The composition root: the whole HTTP surface in one list, each route given
 * its guard, run by one runner. Throws ConfigError when the protection
 * settings are wrong or PROTECT names a route that does not exist.
 */
export function createApp({ config, store, log, drain, metrics, cardProcessor = new SimulatedCardProcessor(), claimSecret, orderEvents, cluster, storage }: AppParts): RouterListener {
  const auth = loadAuthConfig(config.auth, { marketplace: config.marketplace });
  const tokens = createTokenService(auth.jwtSecret, auth.jwtTtlSeconds, { roles: config.marketplace, ...(claimSecret === undefined ? {} : { storeKey: claimSecret }) });
  const gate = new HashGate({ concurrency: auth.hashConcurrency, queueLimit: auth.hashQueueLimit });
  // Each check remembers what it verified itself: /login knows customers, Basic does not, so a
  // customer's recent /login must not let their password pass a Basic guard (as an administrator).
  const passwordCheck = (accounts: AccountDirectory = auth.users, decoy: StoredPassword = auth.users.decoy) =>
    new PasswordCheck({ accounts, decoy, throttle: new LoginThrottle({ maxFailures: auth.loginMaxFailures }), gate, verified: new VerifiedCredentials() });
  const dispatch = routeDispatch(store, log);
  // In the shop, /login knows customers too; an unknown email costs an scrypt hash like a known one.
  const loginPasswords = config.marketplace ? passwordCheck(firstOf(auth.users, customerDirectory(store)), scryptDecoy(config.auth.hashCost)) : passwordCheck();
  const registration = { gate, throttle: new RegisterThrottle({ maxPerHour: config.auth.registerMaxPerHour }), accountNames: auth.users, dispatch, hashCost: config.auth.hashCost };
  // Off, the service is sections 1 to 6 exactly; on, section 7's routes join and /products is the shop's.
  const shop = () => {
    const events = orderEvents ?? createOrderEvents({ store, log, limits: config.eventStreams });
    return [...catalogRoutes, ...reviewRoutes, ...userRoutes(registration), ...addressRoutes, ...wishlistRoutes, ...cartRoutes, ...orderRoutes, ...adminOrderRoutes, ...events.routes, ...paymentRoutes({ store, processor: cardProcessor, log }), ...webhookRoutes({ allowPrivate: config.webhooks.allowPrivate }, newSecret)];
  };
  const marketplace = config.marketplace ? shop() : [...productRoutes];
  const observability = metrics === undefined ? [] : metricsRoutes(metrics.registry);
  const reference = config.openapi ? apiReference({ basePath: config.basePath, docs: config.docs }) : undefined;
  // REFRESH_TTL: /login answers a token pair, and the routes that spend and end them join; off, neither exists.
  const grants = auth.refreshTtlSeconds === 0 ? undefined : new RefreshGrants({ store, tokens, accounts: auth.users, refreshTtlSeconds: auth.refreshTtlSeconds, accessTtlSeconds: auth.jwtTtlSeconds, log });
  const login = [...authRoutes({ passwords: loginPasswords, tokens, ...(grants === undefined ? {} : { pairs: grants }) }), ...(grants === undefined ? [] : refreshRoutes(grants))];
  const routes = [...marketplace, ...produkteRoutes, ...login, ...healthRoutes({ ...(cluster === undefined ? {} : { cluster }), ...(storage === undefined ? {} : { storage }) }), ...observability, ...(reference?.routes ?? [])];
  const errors = serviceErrors(config);
  // Described from the very list the router is given, once.
  reference?.describe({ routes, errors, auth, basePath: config.basePath, strict: config.strict });

  const hooks = [metrics?.answered, config.accessLog ? accessLog(log) : undefined].filter((hook) => hook !== undefined);
  const answered: AnsweredHook | undefined = hooks.length === 0 ? undefined : hooks.length === 1 ? hooks[0] : (exchange, status) => {
    for (const hook of hooks) hook(exchange, status);
  };
  const write = createReplyWriter({ errors, drain, ...(answered === undefined ? {} : { answered }) });
  const run = createRouteRunner<Identity, StoreCommand>({ bodyLimit: config.bodyLimit, dispatch, write, log, ...(claimSecret === undefined ? {} : { claimSecret }) });
  const cors = config.corsOrigins === undefined ? undefined : createCors(config.corsOrigins);
  const clientAddress = createClientAddress(config.trustProxy);
  return createRouter({ routes: protectRoutes<StoreCommand>(routes, auth, { tokens, passwords: passwordCheck() }), basePath: config.basePath, run, write, clientAddress, ...(cors === undefined ? {} : { cors }) });
}
