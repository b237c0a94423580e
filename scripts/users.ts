/**
 * `npm run users -- <command>`: manage sign-in accounts of DATA_DIR from the command line.
 *   list                                   every account and its role
 *   add NAME PASSWORD [--role admin|member] [--display "Full name"]
 *   password NAME PASSWORD                 set a password (NAME `admin` is the built-in administrator)
 *   role NAME admin|member
 *   remove NAME
 */
import { addUser, changeUser, listUserViews, removeUser } from '../lib/auth/users-admin';
import { closeDb } from '../lib/store/db';
import { findUserByEmail } from '../lib/store/users';

async function byName(name: string) {
  const u = await findUserByEmail(name);
  if (!u) throw new Error(`No account named ${name}.`);
  return u;
}

async function main(args: string[]) {
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args.splice(i, 2)[1] : undefined;
  };
  const role = flag('--role') as 'admin' | 'member' | undefined;
  const display = flag('--display');
  const [command, name, value] = args;
  switch (command) {
    case 'list':
      for (const u of await listUserViews()) console.log(`${u.email}\t${u.role}\t${u.hasPassword ? 'password set' : 'no password'}\t${u.name}`);
      break;
    case 'add':
      if (!name || !value) throw new Error('usage: add NAME PASSWORD [--role admin|member]');
      console.log(await addUser({ email: name, password: value, role: role ?? 'member', name: display }));
      break;
    case 'password':
      if (!name || !value) throw new Error('usage: password NAME PASSWORD');
      await changeUser((await byName(name)).id, { password: value });
      console.log(`Password of ${name} set.`);
      break;
    case 'role':
      if (value !== 'admin' && value !== 'member') throw new Error('usage: role NAME admin|member');
      await changeUser((await byName(name)).id, { role: value });
      console.log(`${name} is now ${value}.`);
      break;
    case 'remove':
      await removeUser((await byName(name)).id);
      console.log(`${name} removed.`);
      break;
    default:
      throw new Error('commands: list | add NAME PASSWORD [--role] | password NAME PASSWORD | role NAME admin|member | remove NAME');
  }
}

main(process.argv.slice(2))
  .catch((err: Error) => {
    console.error(`✖ ${err.message}`);
    process.exitCode = 1;
  })
  .finally(() => closeDb());
