/** The marketplace's customers (contract section 7, "Users"): commands and the errors they answer. */

/** A registration as the front validated it; the password is already an scrypt hash (computed in the front, never here). */
export interface NewUser {
  /** Lower-cased. */
  readonly email: string;
  /** Trimmed. */
  readonly name: string;
  /** `scrypt.<log2 N>.<r>.<p>.<salt>.<hash>`, as src/auth/passwords.ts writes it. */
  readonly passwordHash: string;
}

/**
 * What /login needs to check a customer's password. It never becomes an HTTP
 * body: the store answers it as its own result kind (`account`, in
 * store-protocol.ts), which the front reads in one place
 * (src/users/customer-directory.ts).
 */
export interface CustomerAccount {
  readonly userId: number;
  readonly email: string;
  readonly passwordHash: string;
}

export type UserCommand =
  /** Answers the new user; refused EMAIL_TAKEN when the email is registered (checked and taken in one step). */
  | { readonly kind: 'users.register'; readonly user: NewUser }
  | { readonly kind: 'users.get'; readonly userId: number }
  /** The login lookup, by lower-cased email: an `account` result, or refused USER_NOT_FOUND. */
  | { readonly kind: 'users.account'; readonly email: string };

export const USER_STORE_ERRORS = ['USER_NOT_FOUND', 'EMAIL_TAKEN'] as const;
export type UserStoreError = (typeof USER_STORE_ERRORS)[number];
