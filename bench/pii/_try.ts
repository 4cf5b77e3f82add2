import { classifyColumn } from '../../src/core/pii/classify';
const cases: [string,string,string,string[]?][] = [
 ['customer','first_name','text'],['users','token_count','integer'],['sessions','session_id','uuid'],['orders','order_state','text'],
 ['products','age_group','text'],['products','pin_code','text'],['employee','nationalidnumber','varchar(15)'],['person','emailpromotion','integer'],
 ['Laboratory','GOT','integer'],['Dogs','age','text'],['gender','gender','text'],['creditcard','expmonth','smallint'],['x','contact_value','text',['a@b.com','c@d.org','e@f.net']],
 ['salesorderheader','creditcardapprovalcode','varchar'],['address','addressline1','varchar'],['employeepayhistory','rate','numeric'],['Faculty','Phone','number'],
 ['editor','ha1','character(32)'],['users','LastAccessDate','datetime'],['station','long','number'],['Customers_Cards','date_valid_to','time'],
 ['kunden','telefonnummer','text'],['clients','date_de_naissance','date'],['empleados','salario','numeric'],['clientes','correo_electronico','text'],
 ['x','ref','text',['4111 1111 1111 1111','5500 0000 0000 0004','4012888888881881']],
];
for (const [t,c,d,s] of cases) { const t0=classifyColumn({schema:'s',table:t,column:c,dataType:d,samples:s}); console.log(t+'.'+c, JSON.stringify(t0)); }
