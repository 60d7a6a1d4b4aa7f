/**
 * The card fields of a payment (contract section 7, "Payments"): their form
 * (400), then whether the card has expired (402). Nothing here keeps, logs or
 * returns the number or the cvc; a check answers only the brand and the last
 * four digits.
 */

export interface CardInput {
  readonly number: string;
  readonly expMonth: number;
  readonly expYear: number;
  readonly cvc: string;
}

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'unknown';

/** The Luhn checksum every card number carries. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardBrand(digits: string): CardBrand {
  if (digits.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^6(011|5)/.test(digits)) return 'discover';
  return 'unknown';
}

/** The expiry month is over once the month after it has begun, in UTC. */
export function hasExpired(card: Pick<CardInput, 'expMonth' | 'expYear'>, now: Date): boolean {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  return card.expYear < year || (card.expYear === year && card.expMonth < month);
}

/** What is wrong with the card's form, naming the field; undefined when the form is right. */
export function cardFormProblem(card: Readonly<Record<string, unknown>>): string | undefined {
  const { number, expMonth, expYear, cvc } = card;
  if (typeof number !== 'string' || !/^[0-9]{12,19}$/.test(number) || !passesLuhn(number)) return 'card.number must be 12 to 19 digits passing the Luhn check';
  if (typeof expMonth !== 'number' || !Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12) return 'card.expMonth must be an integer from 1 to 12';
  if (typeof expYear !== 'number' || !Number.isInteger(expYear) || expYear < 1000 || expYear > 9999) return 'card.expYear must be a 4-digit year';
  if (typeof cvc !== 'string' || !/^[0-9]{3,4}$/.test(cvc)) return 'card.cvc must be 3 or 4 digits';
  return undefined;
}
