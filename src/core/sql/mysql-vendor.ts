/**
 * The MySQL driver and the MySQL/MariaDB grammars, built as their own bundle (dist/mysql-vendor.js) and required
 * only when a MySQL source is used: together they are about 1.6 MB of minified code, which every start of the CLI
 * and the server would otherwise compile whether or not a MySQL source exists.
 */
export const mysql2 = (): typeof import('mysql2') => require('mysql2') as typeof import('mysql2');
export const mysql2Promise = (): typeof import('mysql2/promise') => require('mysql2/promise') as typeof import('mysql2/promise');
export const sqlParserMysql = (): unknown => require('node-sql-parser/build/mysql') as unknown;
export const sqlParserMariadb = (): unknown => require('node-sql-parser/build/mariadb') as unknown;
