/**
 * Delivery addresses (contract section 7): the list oldest first, create,
 * read, full replace, delete, 20 at most, each field's rule, another
 * customer's address as not found, and 404 before 400.
 */
import test from 'ava';
import { assertErrorBody, call, dataOf } from '../../helpers/api/product-api.js';
import { adminBearer, newCustomer, shopService } from '../../helpers/api/people-api.js';
import type { AddressFields } from '../../../workers/addresses/address-protocol.js';

/** An address as the API answers it: its fields, with its id and creation time. */
interface Address extends AddressFields {
  readonly id: number;
  readonly createdAt: string;
}

const HOME = { name: 'Ada Lovelace', line1: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' };
const OFFICE = { name: 'Ada at work', line1: 'Analytical Lane 1', line2: 'Floor 3', city: 'Berlin', postalCode: '10115', country: 'DE', phone: '+49 30 123456' };
const KEYS = ['id', 'name', 'line1', 'line2', 'city', 'postalCode', 'country', 'phone', 'createdAt'];

test('create answers 201 with every field in order (line2 and phone null when omitted); the list is oldest first; GET one', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const home = await call(service, 'POST', '/users/me/addresses', { json: HOME }, ada.auth);
  t.is(home.status, 201, home.text);
  t.deepEqual(Object.keys(dataOf<Address>(home)), KEYS);
  t.like(dataOf<Address>(home), { ...HOME, id: 1, line2: null, phone: null });
  const office = await call(service, 'POST', `/users/${ada.user.id}/addresses`, { json: { ...OFFICE, unknown: 'ignored' } }, ada.auth);
  t.deepEqual(dataOf<Address>(office), { ...OFFICE, id: 2, createdAt: dataOf<Address>(office).createdAt });
  const list = await call(service, 'GET', '/users/me/addresses', undefined, ada.auth);
  t.is(list.status, 200);
  t.deepEqual(dataOf<Address[]>(list), [dataOf<Address>(home), dataOf<Address>(office)]);
  t.deepEqual(dataOf<Address>(await call(service, 'GET', '/users/me/addresses/2', undefined, ada.auth)), dataOf<Address>(office));
  t.deepEqual(dataOf<Address[]>(await call(service, 'GET', '/users/me/addresses', undefined, (await newCustomer(service, 'Empty')).auth)), []);
});

test('PUT replaces every field (omitted line2 and phone become null), keeping id, createdAt and the place in the list; DELETE is 204 and then 404', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const office = dataOf<Address>(await call(service, 'POST', '/users/me/addresses', { json: OFFICE }, ada.auth));
  const home = dataOf<Address>(await call(service, 'POST', '/users/me/addresses', { json: HOME }, ada.auth));
  const replaced = await call(service, 'PUT', `/users/me/addresses/${office.id}`, { json: { ...HOME, city: 'Paris', country: 'FR' } }, ada.auth);
  t.is(replaced.status, 200);
  t.deepEqual(dataOf<Address>(replaced), { ...HOME, id: office.id, line2: null, city: 'Paris', country: 'FR', phone: null, createdAt: office.createdAt });
  t.deepEqual(
    dataOf<Address[]>(await call(service, 'GET', '/users/me/addresses', undefined, ada.auth)).map((address) => address.id),
    [office.id, home.id],
  );
  const deleted = await call(service, 'DELETE', `/users/me/addresses/${office.id}`, undefined, ada.auth);
  t.is(deleted.status, 204);
  t.is(deleted.text, '');
  assertErrorBody(t, await call(service, 'GET', `/users/me/addresses/${office.id}`, undefined, ada.auth), 404);
  assertErrorBody(t, await call(service, 'DELETE', `/users/me/addresses/${office.id}`, undefined, ada.auth), 404);
  // Ids are never reused: the next address is 3.
  t.is(dataOf<Address>(await call(service, 'POST', '/users/me/addresses', { json: HOME }, ada.auth)).id, 3);
});

test('each bad field is 400 naming it, on POST and PUT', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const { id } = dataOf<Address>(await call(service, 'POST', '/users/me/addresses', { json: HOME }, ada.auth));
  const long = 'x'.repeat(201);
  const cases: ReadonlyArray<[string, unknown, RegExp]> = [
    ['an array', [HOME], /body/],
    ['name missing', { ...HOME, name: undefined }, /^name/],
    ['name empty', { ...HOME, name: '' }, /^name/],
    ['name a number', { ...HOME, name: 7 }, /^name/],
    ['name of 201 characters', { ...HOME, name: long }, /^name/],
    ['line1 missing', { ...HOME, line1: undefined }, /^line1/],
    ['line1 of 201 characters', { ...HOME, line1: long }, /^line1/],
    ['line2 empty', { ...HOME, line2: '' }, /^line2/],
    ['line2 a number', { ...HOME, line2: 2 }, /^line2/],
    ['line2 of 201 characters', { ...HOME, line2: long }, /^line2/],
    ['city null', { ...HOME, city: null }, /^city/],
    ['postalCode a number', { ...HOME, postalCode: 10115 }, /^postalCode/],
    ['country lower-case', { ...HOME, country: 'gb' }, /^country/],
    ['country of three letters', { ...HOME, country: 'GBR' }, /^country/],
    ['country with a digit', { ...HOME, country: 'G1' }, /^country/],
    ['country missing', { ...HOME, country: undefined }, /^country/],
    ['phone empty', { ...HOME, phone: '' }, /^phone/],
    ['phone a number', { ...HOME, phone: 4930123 }, /^phone/],
  ];
  for (const [label, body, field] of cases) {
    t.regex(assertErrorBody(t, await call(service, 'POST', '/users/me/addresses', { json: body }, ada.auth), 400, `POST ${label}`), field, label);
    t.regex(assertErrorBody(t, await call(service, 'PUT', `/users/me/addresses/${id}`, { json: body }, ada.auth), 400, `PUT ${label}`), field, label);
  }
  // At the bounds: 200 characters (code points: 200 emoji), null line2 and phone.
  const bounds = { ...HOME, name: '🏠'.repeat(200), line1: 'l'.repeat(200), line2: null, phone: null, postalCode: 'p' };
  t.is((await call(service, 'POST', '/users/me/addresses', { json: bounds }, ada.auth)).status, 201);
});

test('past 20 addresses a POST is 409; after a delete there is room again', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  for (let index = 0; index < 20; index++) t.is((await call(service, 'POST', '/users/me/addresses', { json: { ...HOME, line1: `Street ${index}` } }, ada.auth)).status, 201);
  t.regex(assertErrorBody(t, await call(service, 'POST', '/users/me/addresses', { json: HOME }, ada.auth), 409), /20/);
  // The limit is per customer.
  t.is((await call(service, 'POST', '/users/me/addresses', { json: HOME }, (await newCustomer(service, 'Bob')).auth)).status, 201);
  t.is((await call(service, 'DELETE', '/users/me/addresses/1', undefined, ada.auth)).status, 204);
  t.is((await call(service, 'POST', '/users/me/addresses', { json: HOME }, ada.auth)).status, 201);
});

test("another customer's address id is 404 under one's own path, for every method, and is left unchanged", async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const eve = await newCustomer(service, 'Eve');
  const adas = dataOf<Address>(await call(service, 'POST', '/users/me/addresses', { json: HOME }, ada.auth));
  for (const [method, body] of [['GET'], ['PUT', { json: OFFICE }], ['DELETE']] as const) {
    for (const path of [`/users/me/addresses/${adas.id}`, `/users/${eve.user.id}/addresses/${adas.id}`]) {
      t.regex(assertErrorBody(t, await call(service, method, path, body, eve.auth), 404, `${method} ${path}`), /address not found/i);
    }
  }
  t.deepEqual(dataOf<Address>(await call(service, 'GET', `/users/me/addresses/${adas.id}`, undefined, ada.auth)), adas);
});

test('404 beats 400: an unknown address with a bad body is 404; a non-numeric address id is 404; the body form (415, not JSON) beats 404', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  assertErrorBody(t, await call(service, 'PUT', '/users/me/addresses/99', { json: { name: '' } }, ada.auth), 404);
  assertErrorBody(t, await call(service, 'GET', '/users/me/addresses/abc', undefined, ada.auth), 404);
  assertErrorBody(t, await call(service, 'PUT', '/users/me/addresses/1.5', { json: HOME }, ada.auth), 404);
  t.is((await call(service, 'PUT', '/users/me/addresses/99', { raw: '{"name":' }, ada.auth)).status, 400);
  const textBody = await fetch(`${service.url}/users/me/addresses/99`, { method: 'PUT', headers: { ...ada.auth, 'content-type': 'text/plain' }, body: 'x' });
  t.is(textBody.status, 415);
});

test("an administrator reads any user's addresses; an unknown user is 404 USER_NOT_FOUND on the list and on one address", async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const home = dataOf<Address>(await call(service, 'POST', '/users/me/addresses', { json: HOME }, ada.auth));
  const admin = await adminBearer(service);
  t.deepEqual(dataOf<Address[]>(await call(service, 'GET', `/users/${ada.user.id}/addresses`, undefined, admin)), [home]);
  t.deepEqual(dataOf<Address>(await call(service, 'GET', `/users/${ada.user.id}/addresses/${home.id}`, undefined, admin)), home);
  t.regex(assertErrorBody(t, await call(service, 'GET', '/users/999/addresses', undefined, admin), 404), /user not found/i);
  t.regex(assertErrorBody(t, await call(service, 'GET', `/users/999/addresses/${home.id}`, undefined, admin), 404), /user not found/i);
});
