"""`evaluate_formula` (skills/kit/guest/sheets.py) against LibreOffice's own results.

The Calc rewards score files written by openpyxl (no cached values: the evaluator computes them)
and files saved by LibreOffice (cached values). Both must agree, so this test builds one workbook
with openpyxl (data sheets, then one formula per row of the `Calc` sheet), has headless LibreOffice
recalculate it and save it as .xlsx in a single run, and compares LibreOffice's cached values
(openpyxl, data_only=True) with the evaluator run on the openpyxl-written original.

Recalculation is forced with a throwaway LibreOffice user profile whose registrymodifications.xcu
sets org.openoffice.Office.Calc/Formula/Load/OOXMLRecalcMode to 0 ("always recalculate"); the
test proves it happened with a sentinel cell whose cached value is made stale (-1) in the file
handed to LibreOffice and must come back computed.

How results compare: numbers within 1e-9 (relative), text and booleans exactly (a bool is never
a number here, nor the reverse); a date LibreOffice returns counts as its serial number. When
LibreOffice's result is an error (#DIV/0!, #VALUE!, ...), the evaluator must raise ValueError
whose message starts with that same code: a reward then treats the cell as unscoreable.

Each formula is written as a Calc user types it; where it has semicolon separators, the workbook
gets the comma form (what LibreOffice writes into .xlsx, and all an .xlsx formula may hold: a
semicolon there is #VALUE! to LibreOffice). The evaluator must give LibreOffice's value for the
formula as typed, without its '=', through `computed_value` on the cell (the comma form), as
LibreOffice rewrote it on saving (TRUE becomes TRUE(), lower case goes upper), and over
LibreOffice's saved file, where the cells it reads carry cached values (errors included).

Behaviour here is LibreOffice's where it differs from Excel (booleans count as numbers in SUM and
COUNT, "*" matches numbers, TRUE&"" is "1"): the rewards score what Calc shows. One table entry
was dropped for that reason: MAX over boolean cells, which LibreOffice gives back as a boolean
(it formats the result like its arguments), is checked as MAX(...)*1 instead.
"""

from __future__ import annotations

import datetime
import math
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils.datetime import to_excel

from skills.kit.guest.sheets import computed_value, evaluate_formula, open_book

pytestmark = pytest.mark.slow

SHEET = "Calc"  # the formula sheet: one formula per row in column A, local data in C:G
SENTINEL = ("H1", "6*7", 42)  # cell, formula, value: its cached value is made stale before LibreOffice
ERROR_CODES = ("#DIV/0!", "#VALUE!", "#N/A", "#NAME?", "#NUM!", "#REF!", "#NULL!")

# Local data on the formula sheet, rows 1..11: C numbers (C9 blank), D text (D9 blank), E a mix of
# numbers, numeric text, text, booleans and a blank, F booleans, G criteria for the *IF functions.
LOCAL = {
    "C": [1, 2, 3, 4.5, -2, 10, 0, 2.675, None, 100, 1.005],
    "D": ["apple", "Banana", "cherry", "apple pie", "date", "Apple", "a*b", "b?c", None, "x~y", "12"],
    "E": [5, "12", "abc", True, None, 7.5, False, "zeta", "Nine", 0, -4],
    "F": [True, False, True, None, True, False, "yes", 1, 0, True],
    "G": ["Food", "Travel", ">=10", "<>Food", "F*", 10, None, "office"],
}

# The category_summary layout: Date, Category, Description, Amount, and Qty x Price = Line (a
# formula, so sums over G exercise formulas whose values nobody cached). B11 is blank.
DATA_ROWS = [
    ("2024-01-03", "Food", "Lunch 101", 12.5, 2, 3.5),
    ("2024-01-05", "Travel", "Taxi 202", 40, 1, 40),
    ("2024-01-09", "Office", "Paper 303", 8.25, 5, 1.65),
    ("2024-01-12", "Food", "Dinner 404", 30.75, 3, 10.25),
    ("2024-01-15", "Travel", "Train 505", 55.1, 2, 27.55),
    ("2024-01-20", "Food & Drink", "Coffee 606", 4.2, 4, 1.05),
    ("2024-02-01", "office", "Pens 707", 3.99, 10, 0.4),
    ("2024-02-03", "Travel", "Hotel 808", 120, 1, 120),
    ("2024-02-07", "Food", "Snack 909", 2.5, 6, 0.5),
    ("2024-02-11", None, "Misc 111", 10, 1, 10),
    ("2024-02-15", "Office Supplies", "Stapler 121", 15, 1, 15),
]

# The sheet_figure_reply layout: months down, regions across, a Total row of SUM formulas.
SALES = [
    ("Jan", 120, 95.5, 210, 80),
    ("Feb", 130, 101.25, 190, 85),
    ("Mar", 125, 99, 205, 90),
    ("Apr", 140, 110.75, 220, 70),
    ("May", 150, 120, 230, 95),
    ("Jun", 160, 98.5, 240, 100),
]

# (kind, formula as a Calc user would type it). The evaluator must agree with LibreOffice on each.
CASES = [
    # arithmetic: precedence, unary minus (binds tighter than ^ in Calc and Excel), ^ left-assoc
    ("arith", "=1+2*3"),
    ("arith", "=(1+2)*3"),
    ("arith", "=10-4-3"),
    ("arith", "=2*3+4*5"),
    ("arith", "=10/4"),
    ("arith", "=7/2*2"),
    ("arith", "=2^3"),
    ("arith", "=2^3^2"),
    ("arith", "=-2^2"),
    ("arith", "=0-2^2"),
    ("arith", "=2^-1"),
    ("arith", "=-(3+4)"),
    ("arith", "=--3"),
    ("arith", "=+C3"),
    ("arith", "=-C5"),
    ("arith", "=3-C5*-2"),
    ("arith", "=C1+C2*C3"),
    ("arith", "=(C1+C2)*C3"),
    ("arith", "=C10/C6/C2"),
    ("arith", "=C4*2"),
    ("arith", "=1.5e3+1"),
    ("arith", "=.5*4"),
    ("arith", "=1E-3*1000"),
    ("arith", "=C8*100"),
    ("arith", "=0.1+0.2"),
    ("arith", "=100*(1+C4/100)"),
    ("arith", "=2*(3+(4-1)*2)"),
    ("arith", "=C10-C6*C2^2"),
    ("arith", "=(C10-C6)*C2^2"),
    ("arith", "=-C6^2"),
    ("arith", "=1/3*3"),
    ("arith", "=2^0.5"),
    ("arith", "=10^-2"),
    ("arith", "=0^0"),
    ("arith", '=" 3 "+1'),
    ("arith", "=C9+1"),
    ("arith", "=C9*5"),
    ("arith", "=C9"),
    ("arith", "=E1+E4"),
    ("arith", "=TRUE+TRUE"),
    ("arith", "=E2+1"),
    ("arith", "=E2*E2"),
    ("arith", '="3"+4'),
    ("arith", '=--"12"'),
    ("arith", "=Data!D2*Data!E2"),
    # arithmetic errors
    ("arith-error", "=1/0"),
    ("arith-error", "=C1/C7"),
    ("arith-error", "=C6/C9"),
    ("arith-error", "=D1+1"),
    ("arith-error", '="abc"*2'),
    ("arith-error", "=-D2"),
    ("arith-error", "=E3*2"),
    ("arith-error", "=0^-1"),
    ("arith-error", "=(-8)^(1/3)"),
    ("arith-error", "=10^400"),
    ("arith-error", "=(-4)^0.5"),
    # percent
    ("percent", "=50%"),
    ("percent", "=C6*10%"),
    ("percent", "=C10%"),
    ("percent", "=200%*3"),
    ("percent", "=-10%"),
    ("percent", "=(C1+C2)%"),
    ("percent", "=2^50%"),
    ("percent", "=C6%*C10"),
    ("percent", "=1+5%"),
    # & concatenation (below + and -, above comparisons); numbers as Calc shows them
    ("concat", '="a"&"b"'),
    ("concat", '=D1&" "&D2'),
    ("concat", "=C1&C2"),
    ("concat", '=C4&""'),
    ("concat", "=1+2&3"),
    ("concat", '="x"&1+2'),
    ("concat", '=C8&""'),
    ("concat", '=1/3&""'),
    ("concat", '=0.1+0.2&""'),
    ("concat", '=100*1.1&""'),
    ("concat", '=C9&"x"'),
    ("concat", '=D9&"|"'),
    ("concat", "=E1&E2"),
    ("concat", '=C5&""'),
    ("concat", '=-C5&""'),
    ("concat", '=2.50&""'),
    ("concat", '="say ""hi"""'),
    ("concat", '=C1&"-"&C2&"-"&C3'),
    ("concat", '=123456789012&""'),
    ("concat", '=10^20&""'),
    ("concat", '=1/3/10^5&""'),
    ("concat", '=TRUE&"x"'),
    ("concat", '=E4&"x"'),
    ("concat", '="Total: "&SUM(C1:C3)'),
    ("concat", '="a;b"&";"'),
    ("concat", "=D1&Data!B2"),
    # comparisons: case-insensitive text, text above every number, blanks equal 0 and ""
    ("compare", "=1<2"),
    ("compare", "=2<=2"),
    ("compare", "=3>=4"),
    ("compare", "=1=1"),
    ("compare", "=1<>1"),
    ("compare", "=C1=1"),
    ("compare", "=C1>C2"),
    ("compare", '=D1="apple"'),
    ("compare", '=D1="APPLE"'),
    ("compare", '=D1<>"apple"'),
    ("compare", '="a"<"b"'),
    ("compare", '="B">"a"'),
    ("compare", '="apple"<"apple pie"'),
    ("compare", '="10"<"9"'),
    ("compare", '=1<"a"'),
    ("compare", '="1"<2'),
    ("compare", '="1"=1'),
    ("compare", "=C9=0"),
    ("compare", '=C9=""'),
    ("compare", '=D9=""'),
    ("compare", "=C9<1"),
    ("compare", "=1+1=2"),
    ("compare", "=C1+C2>=C3"),
    ("compare", "=(C1<C2)+(C2<C3)"),
    ("compare", '=(D1="apple")*10'),
    ("compare", '="a"&"b"="AB"'),
    ("compare", "=E2=12"),
    ("compare", '=E2="12"'),
    ("compare", "=C4>4"),
    ("compare", "=-1<0"),
    ("compare", "=FALSE<TRUE"),
    ("compare", "=0.1+0.2=0.3"),
    ("compare", '=Data!B2="food"'),
    # references: $ forms, lower case, other sheets (quoted names, spaces, apostrophes), formula chains
    ("ref", "=C1"),
    ("ref", "=$C$1"),
    ("ref", "=C$2"),
    ("ref", "=$C2"),
    ("ref", "=c3"),
    ("ref", "=D1"),
    ("ref", "=E4"),
    ("ref", "=F2"),
    ("ref", "=Data!D2"),
    ("ref", "=Data!$D$2"),
    ("ref", "='Data'!D2"),
    ("ref", "=data!D3"),
    ("ref", "='Sales Data'!B2"),
    ("ref", "='Sales Data'!$B$3+'Sales Data'!C3"),
    ("ref", "='O''Brien'!A1"),
    ("ref", "='O''Brien'!A1+'O''Brien'!$A$2"),
    ("ref", "=Data!G2"),
    ("ref", "=Data!G2+Data!G3"),
    ("ref", "='Sales Data'!B8"),
    ("ref", "=Data!A3-Data!A2"),
    ("ref", "=Data!A2+1"),
    ("ref", "=Data!A2"),
    # SUM over ranges, whole columns, other sheets, direct arguments
    ("sum", "=SUM(C1:C3)"),
    ("sum", "=SUM(C1:C11)"),
    ("sum", "=SUM($C$1:$C$5)"),
    ("sum", "=SUM(C1:C3,10)"),
    ("sum", "=SUM(C1,C2,C3)"),
    ("sum", "=SUM(C:C)"),
    ("sum", "=SUM($C:$C)"),
    ("sum", "=SUM(Data!D2:D12)"),
    ("sum", "=SUM(Data!D:D)"),
    ("sum", "=SUM(Data!G2:G12)"),
    ("sum", "=SUM(Data!G:G)"),
    ("sum", "=SUM('Sales Data'!B2:B7)"),
    ("sum", "=SUM('Sales Data'!B2:E7)"),
    ("sum", "=SUM('Sales Data'!B:B)"),
    ("sum", "=SUM('O''Brien'!A1:A3)"),
    ("sum", "=SUM(E1:E11)"),
    ("sum", "=SUM(F1:F10)"),
    ("sum", "=SUM(D1:D5)"),
    ("sum", "=SUM(1,2,3)"),
    ("sum", '=SUM("3",4)'),
    ("sum", "=SUM(TRUE,2)"),
    ("sum", "=SUM(C9)"),
    ("sum", "=SUM(C3:C1)"),
    ("sum", "=SUM(C1:D3)"),
    ("sum", "=SUM(Errors!A2,Errors!A4)"),
    ("sum", "=SUM(C1:C3)*2"),
    ("sum", "=sum(C1:C3)"),
    ("sum", "=SUM(c1:c3)"),
    ("sum", "=SUM(C1:C2,C3:C4,C5)"),
    ("sum", "=SUM(-C1,C2)"),
    ("sum", "=SUM(C1:C3)-SUM(C4:C5)"),
    ("sum", "=SUM(Data!A2:A3)"),
    ("sum-error", '=SUM("abc",1)'),
    ("sum-error", "=SUM(Errors!A1:A2)"),
    ("sum-error", "=SUM(Errors!A3:A4)"),
    ("sum-error", "=Errors!A1+1"),
    ("sum-error", "=MAX(Errors!A1:A4)"),
    # PRODUCT and SUMPRODUCT
    ("product", "=PRODUCT(C1:C3)"),
    ("product", "=PRODUCT(C1,C2,C3,2)"),
    ("product", "=PRODUCT(C1:C4)"),
    ("product", "=PRODUCT(C9:C9)"),
    ("product", "=PRODUCT(D1:D3)"),
    ("product", "=PRODUCT(Data!E2,Data!F2)"),
    ("product", "=PRODUCT(E1:E3)"),
    ("product", '=PRODUCT(2,"3")'),
    ("sumproduct", "=SUMPRODUCT(Data!E2:E12,Data!F2:F12)"),
    ("sumproduct", "=SUMPRODUCT(C1:C3,C4:C6)"),
    ("sumproduct", "=SUMPRODUCT(C1:C5)"),
    ("sumproduct", "=SUMPRODUCT(C1:C3,D1:D3)"),
    ("sumproduct", "=SUMPRODUCT('Sales Data'!B2:B7,'Sales Data'!C2:C7)"),
    ("sumproduct", "=SUMPRODUCT(C1:C11,C1:C11)"),
    ("sumproduct", "=SUMPRODUCT(E1:E6,C1:C6)"),
    ("sumproduct", "=SUMPRODUCT('Sales Data'!B2:C7,'Sales Data'!D2:E7)"),
    ("sumproduct-error", "=SUMPRODUCT(C1:C3,C1:C4)"),
    # AVERAGE MIN MAX
    ("average", "=AVERAGE(C1:C3)"),
    ("average", "=AVERAGE(C1:C11)"),
    ("average", "=AVERAGE(C1,C2,9)"),
    ("average", "=AVERAGE(Data!D2:D12)"),
    ("average", "=AVERAGE(Data!D:D)"),
    ("average", "=AVERAGE(E1:E11)"),
    ("average", "=AVERAGE(F1:F10)"),
    ("average", "=AVERAGE(1,TRUE)"),
    ("average", '=AVERAGE("3",1)'),
    ("average", "=AVERAGE('Sales Data'!B2:E7)"),
    ("average-error", "=AVERAGE(D1:D3)"),
    ("average-error", "=AVERAGE(C9)"),
    ("minmax", "=MIN(C1:C11)"),
    ("minmax", "=MAX(C1:C11)"),
    ("minmax", "=MIN(C5,C6,-10)"),
    ("minmax", "=MAX(D1:D3)"),
    ("minmax", "=MIN(D1:D3)"),
    ("minmax", "=MAX(Data!D:D)"),
    ("minmax", "=MIN(Data!D2:D12)"),
    ("minmax", "=MAX(E1:E11)"),
    ("minmax", "=MIN(E1:E11)"),
    ("minmax", "=MAX(F1:F10)*1"),
    ("minmax", '=MAX(-1,"5")'),
    ("minmax", "=MAX('Sales Data'!B2:E7)"),
    ("minmax", "=MAX(C9)"),
    ("minmax", "=MIN(Data!A2:A12)"),
    # COUNT COUNTA
    ("count", "=COUNT(C1:C11)"),
    ("count", "=COUNT(D1:D11)"),
    ("count", "=COUNT(E1:E11)"),
    ("count", "=COUNT(F1:F10)"),
    ("count", "=COUNT(C:C)"),
    ("count", "=COUNT(Data!D:D)"),
    ("count", "=COUNT(Data!A:A)"),
    ("count", '=COUNT(1,"2","a",TRUE)'),
    ("count", "=COUNT(Errors!A1:A4)"),
    ("counta", "=COUNTA(C1:C11)"),
    ("counta", "=COUNTA(D1:D11)"),
    ("counta", "=COUNTA(E1:E11)"),
    ("counta", "=COUNTA(F1:F10)"),
    ("counta", "=COUNTA(Data!B:B)"),
    ("counta", "=COUNTA(Data!B2:B12)"),
    ("counta", '=COUNTA(1,"a","")'),
    ("counta", "=COUNTA(C9)"),
    ("counta", "=COUNTA(Errors!A1:A4)"),
    ("counta", "=COUNTA('Sales Data'!A:A)"),
    # ROUND (half away from zero, on the decimal the cell shows) and ABS
    ("round", "=ROUND(2.5,0)"),
    ("round", "=ROUND(3.5,0)"),
    ("round", "=ROUND(-2.5,0)"),
    ("round", "=ROUND(C8,2)"),
    ("round", "=ROUND(C11,2)"),
    ("round", "=ROUND(0.125,2)"),
    ("round", "=ROUND(0.285,2)"),
    ("round", "=ROUND(2.345,2)"),
    ("round", "=ROUND(-1.45,1)"),
    ("round", "=ROUND(1234.5678,-2)"),
    ("round", "=ROUND(1234.5678,1)"),
    ("round", "=ROUND(15,-1)"),
    ("round", "=ROUND(25,-1)"),
    ("round", "=ROUND(1/3,4)"),
    ("round", "=ROUND(1.2345,2.7)"),
    ("round", "=ROUND(E2,0)"),
    ("round", "=ROUND(C9,1)"),
    ("round", "=ROUND(SUM(Data!D2:D12),2)"),
    ("round", "=ROUND(AVERAGE(Data!D2:D12),2)"),
    ("abs", "=ABS(C5)"),
    ("abs", "=ABS(-3.5)"),
    ("abs", "=ABS(C1-C10)"),
    ("abs", "=ABS(C9)"),
    ("abs", "=ABS(SUM(C1:C3)-C10)"),
    ("abs-error", "=ABS(D1)"),
    # IF: the branch not taken is not evaluated (its errors do not matter)
    ("if", '=IF(C1>0,"pos","neg")'),
    ("if", '=IF(C5>0,"pos","neg")'),
    ("if", "=IF(C1=1,10,20)"),
    ("if", "=IF(C9,1,2)"),
    ("if", "=IF(C7,1,2)"),
    ("if", '=IF(C1,"yes")'),
    ("if", '=IF(C7,"yes")'),
    ("if", '=IF(D1="apple",C1,C2)'),
    ("if", "=IF(C7=0,0,C1/C7)"),
    ("if", '=IF(C7<>0,C1/C7,"n/a")'),
    ("if", "=IF(TRUE,1,2)"),
    ("if", "=IF(FALSE,1,2)"),
    ("if", '=IF(C1>0,IF(C2>5,"a","b"),"c")'),
    ("if", "=IF(SUM(C1:C3)>5,MAX(C1:C3),MIN(C1:C3))"),
    ("if", "=IF(C1>0,C9)"),
    ("if", '=IF(E4,"t","f")'),
    ("if", '=IF(F2,"t","f")'),
    ("if", "=IF(C4>4,C4*2,C4/2)"),
    ("if", '=IF(C1,D1,D2)&"!"'),
    ("if", '=IF(COUNTIF(Data!B2:B12,"Food")>2,"many","few")'),
    ("if", '=IF(C1>0;"pos";"neg")'),
    ("if", '=IF("TRUE",1,2)'),
    ("if", "=IF(C1<0,SUM(Errors!A1:A2),7)"),
    ("if-error", "=IF(C1<0,1,C1/0)"),
    ("if-error", "=IF(1/0>1,1,2)"),
    ("if-error", "=IF(D1,1,2)"),
    # SUMIF: text, case, wildcards, blanks, numeric criteria, criteria from cells, shifted ranges
    ("sumif", '=SUMIF(Data!B2:B12,"Food",Data!D2:D12)'),
    ("sumif", '=SUMIF(Data!B2:B12,"food",Data!D2:D12)'),
    ("sumif", '=SUMIF(Data!B:B,"Travel",Data!D:D)'),
    ("sumif", '=SUMIF(Data!$B$2:$B$12,"Office",Data!$D$2:$D$12)'),
    ("sumif", '=SUMIF(Data!B2:B12,"Office*",Data!D2:D12)'),
    ("sumif", '=SUMIF(Data!B2:B12,"F*",Data!D2:D12)'),
    ("sumif", '=SUMIF(Data!B2:B12,"*&*",Data!D2:D12)'),
    ("sumif", '=SUMIF(Data!B2:B12,"Tr?vel",Data!D2:D12)'),
    ("sumif", '=SUMIF(Data!B2:B12,"<>Food",Data!D2:D12)'),
    ("sumif", '=SUMIF(Data!B2:B12,"",Data!D2:D12)'),
    ("sumif", '=SUMIF(Data!B2:B12,"=",Data!D2:D12)'),
    ("sumif", '=SUMIF(Data!B2:B12,"<>",Data!D2:D12)'),
    ("sumif", '=SUMIF(Data!D2:D12,">=10")'),
    ("sumif", '=SUMIF(Data!D2:D12,">10")'),
    ("sumif", '=SUMIF(Data!D2:D12,"<10")'),
    ("sumif", '=SUMIF(Data!D2:D12,"<=12.5")'),
    ("sumif", '=SUMIF(Data!D2:D12,"<>40")'),
    ("sumif", "=SUMIF(Data!D2:D12,40)"),
    ("sumif", '=SUMIF(Data!D2:D12,"40")'),
    ("sumif", '=SUMIF(Data!D2:D12,"=40")'),
    ("sumif", '=SUMIF(Data!D2:D12,">"&C6)'),
    ("sumif", '=SUMIF(Data!E2:E12,">1",Data!G2:G12)'),
    ("sumif", "=SUMIF(Data!B2:B12,G1,Data!D2:D12)"),
    ("sumif", "=SUMIF(Data!B2:B12,$G$2,Data!$D$2:$D$12)"),
    ("sumif", "=SUMIF(Data!D2:D12,G3)"),
    ("sumif", "=SUMIF(Data!B2:B12,G4,Data!D2:D12)"),
    ("sumif", "=SUMIF(Data!B2:B12,G5,Data!D2:D12)"),
    ("sumif", "=SUMIF(Data!D2:D12,G6)"),
    ("sumif", "=SUMIF(Data!B2:B12,G8,Data!D2:D12)"),
    ("sumif", "=SUMIF(Data!B2:B12,G7,Data!D2:D12)"),
    ("sumif", "=SUMIF('Data'!B3:B12,G1,'Data'!D3:D12)"),
    ("sumif", "=SUMIF('Data'!B4:B13,G1,'Data'!D4:D13)"),
    ("sumif", '=SUMIF(C1:C11,">0")'),
    ("sumif", '=SUMIF(C1:C11,">2",D1:D11)'),
    ("sumif", '=SUMIF(C1:C11,"<0",C1:C11)'),
    ("sumif", '=SUMIF(E1:E11,">0")'),
    ("sumif", '=SUMIF(D1:D11,"apple",C1:C11)'),
    ("sumif", '=SUMIF(D1:D11,"apple*",C1:C11)'),
    ("sumif", '=SUMIF(D1:D11,"*e",C1:C11)'),
    ("sumif", '=SUMIF(D1:D11,"?pple",C1:C11)'),
    ("sumif", '=SUMIF(Data!B2:B12,"Food",Data!D2)'),
    ("sumif", "=SUMIF(Data!B:B,\"Food\",'Sales Data'!B:B)"),
    ("sumif", "=SUMIF('Sales Data'!A2:A7,\"M*\",'Sales Data'!C2:C7)"),
    ("sumif", '=SUMIF(Data!B2:B12;"Food";Data!D2:D12)'),
    ("sumif", "=SUMIF(F1:F10,TRUE,C1:C10)"),
    ("sumif", "=SUMIF(F1:F10,FALSE,C1:C10)"),
    ("sumif", '=SUMIF(Data!B2:B12,"Food",Data!D2:D12)+SUMIF(Data!B2:B12,"Travel",Data!D2:D12)'),
    ("sumif", '=SUMIF(D1:D11,">m",C1:C11)'),
    # SUMIFS
    ("sumifs", '=SUMIFS(Data!D2:D12,Data!B2:B12,"Food")'),
    ("sumifs", "=SUMIFS(Data!$D$2:$D$12,Data!$B$2:$B$12,G1)"),
    ("sumifs", "=SUMIFS('Data'!$D$2:$D$12,'Data'!$B$2:$B$12,G8)"),
    ("sumifs", '=SUMIFS(Data!D2:D12,Data!B2:B12,"Food",Data!E2:E12,">2")'),
    ("sumifs", '=SUMIFS(Data!D:D,Data!B:B,"Travel",Data!D:D,"<100")'),
    ("sumifs", '=SUMIFS(Data!D2:D12,Data!B2:B12,"<>Food",Data!D2:D12,">=5")'),
    ("sumifs", '=SUMIFS(Data!G2:G12,Data!B2:B12,"F*")'),
    ("sumifs", '=SUMIFS(Data!D2:D12,Data!B2:B12,"Food",Data!B2:B12,"Travel")'),
    ("sumifs", '=SUMIFS(Data!D2:D12;Data!B2:B12;"Food";Data!E2:E12;">2")'),
    ("sumifs", "=SUMIFS('Sales Data'!B2:B7,'Sales Data'!C2:C7,\">\"&'Sales Data'!C2)"),
    ("sumifs", '=SUMIFS(C1:C11,D1:D11,"apple")'),
    ("sumifs", '=SUMIFS(C1:C11,E1:E11,">0")'),
    ("sumifs", '=SUMIFS(Data!D2:D12,Data!A2:A12,">="&Data!A5)'),
    ("sumifs", '=SUMIFS(Data!D2:D12,Data!B2:B12,"=Food")'),
    ("sumifs", '=SUMIFS(Data!D2:D12,Data!B2:B12,"")'),
    ("sumifs-error", '=SUMIFS(Data!D2:D12,Data!B2:B12,"Food",Data!E2:E11,">2")'),
    # COUNTIF
    ("countif", '=COUNTIF(Data!B2:B12,"Food")'),
    ("countif", "=COUNTIF(Data!$B$2:$B$12,G1)"),
    ("countif", '=COUNTIF(Data!B:B,"Travel")'),
    ("countif", '=COUNTIF(Data!B2:B12,"office")'),
    ("countif", '=COUNTIF(Data!B2:B12,"Office*")'),
    ("countif", '=COUNTIF(Data!B2:B12,"*")'),
    ("countif", '=COUNTIF(Data!B2:B12,"?*")'),
    ("countif", '=COUNTIF(Data!B2:B12,"<>")'),
    ("countif", '=COUNTIF(Data!B2:B12,"")'),
    ("countif", '=COUNTIF(Data!B2:B12,"=")'),
    ("countif", '=COUNTIF(Data!B2:B12,"<>Travel")'),
    ("countif", '=COUNTIF(Data!D2:D12,">40")'),
    ("countif", '=COUNTIF(Data!D2:D12,">=40")'),
    ("countif", '=COUNTIF(Data!D2:D12,"<5")'),
    ("countif", '=COUNTIF(Data!D2:D12,"<=4.2")'),
    ("countif", '=COUNTIF(C1:C11,">40")'),
    ("countif", '=COUNTIF(C1:C11,">"&C2)'),
    ("countif", '=COUNTIF(C1:C11,"<"&C6/2)'),
    ("countif", "=COUNTIF(C1:C11,0)"),
    ("countif", '=COUNTIF(C1:C11,"0")'),
    ("countif", '=COUNTIF(C1:C11,"<>0")'),
    ("countif", '=COUNTIF(C1:C11,"")'),
    ("countif", '=COUNTIF(C:C,">0")'),
    ("countif", '=COUNTIF(C1:C11,">=1E1")'),
    ("countif", '=COUNTIF(C1:C11,">-2")'),
    ("countif", '=COUNTIF(C1:C11,"=-2")'),
    ("countif", '=COUNTIF(C1:C11,">2.5")'),
    ("countif", '=COUNTIF(C1:C11,"1*")'),
    ("countif", '=COUNTIF(C1:C11,"*")'),
    ("countif", '=COUNTIF(D1:D11,"apple")'),
    ("countif", '=COUNTIF(D1:D11,"APPLE")'),
    ("countif", '=COUNTIF(D1:D11,"a*")'),
    ("countif", '=COUNTIF(D1:D11,"*a*")'),
    ("countif", '=COUNTIF(D1:D11,"?????")'),
    ("countif", '=COUNTIF(D1:D11,"a~*b")'),
    ("countif", '=COUNTIF(D1:D11,"b~?c")'),
    ("countif", '=COUNTIF(D1:D11,"x~~y")'),
    ("countif", '=COUNTIF(D1:D11,"a*b")'),
    ("countif", '=COUNTIF(D1:D11,"<>apple")'),
    ("countif", '=COUNTIF(D1:D11,"12")'),
    ("countif", "=COUNTIF(D1:D11,12)"),
    ("countif", '=COUNTIF(D1:D11,">m")'),
    ("countif", '=COUNTIF(D1:D11,"<c")'),
    ("countif", "=COUNTIF(E1:E11,12)"),
    ("countif", '=COUNTIF(E1:E11,"12")'),
    ("countif", '=COUNTIF(E1:E11,">0")'),
    ("countif", "=COUNTIF(E1:E11,TRUE)"),
    ("countif", '=COUNTIF(E1:E11,"abc")'),
    ("countif", "=COUNTIF(F1:F10,TRUE)"),
    ("countif", "=COUNTIF(F1:F10,FALSE)"),
    ("countif", "=COUNTIF(F1:F10,1)"),
    ("countif", '=COUNTIF(F1:F10,"yes")'),
    ("countif", '=COUNTIF(F1:F10,"TRUE")'),
    ("countif", '=COUNTIF(D1:D11,"x~y")'),
    ("countif", "=COUNTIF(C1:C11,G7)"),
    ("countif", "=COUNTIF(D1:D11,G7)"),
    ("countif", '=COUNTIF(Errors!A1:A4,">0")'),
    ("countif", '=COUNTIF(Errors!B1:B4,"x")'),
    ("countif", "=COUNTIF('O''Brien'!B1:B3,\"x\")"),
    ("countif", "=COUNTIF('Sales Data'!B2:E7,\">100\")"),
    ("countif", '=COUNTIF(Data!B2:B12;"Food")'),
    ("countif", '=COUNTIF(Data!A2:A12,">"&Data!A6)'),
    ("countif", "=COUNTIF('Data'!$B$2:$B$12,G2)"),
    # COUNTIFS
    ("countifs", '=COUNTIFS(Data!B2:B12,"Food",Data!D2:D12,">10")'),
    ("countifs", '=COUNTIFS(Data!B2:B12,"Travel")'),
    ("countifs", '=COUNTIFS(Data!B:B,"F*",Data!E:E,">=3")'),
    ("countifs", '=COUNTIFS(Data!B2:B12,"<>Food",Data!B2:B12,"<>Travel")'),
    ("countifs", '=COUNTIFS(D1:D11,"a*",C1:C11,">1")'),
    ("countifs", '=COUNTIFS(C1:C11,">0",C1:C11,"<5")'),
    ("countifs", '=COUNTIFS(Data!B2:B12;"Food";Data!D2:D12;">10")'),
    ("countifs", "=COUNTIFS('Sales Data'!B2:B7,\">\"&AVERAGE('Sales Data'!B2:B7))"),
    ("countifs-error", '=COUNTIFS(Data!B2:B12,"Food",Data!D2:D11,">10")'),
    # AVERAGEIF
    ("averageif", '=AVERAGEIF(Data!B2:B12,"Food",Data!D2:D12)'),
    ("averageif", '=AVERAGEIF(Data!D2:D12,">10")'),
    ("averageif", '=AVERAGEIF(Data!B:B,"Travel",Data!D:D)'),
    ("averageif", '=AVERAGEIF(C1:C11,"<>0")'),
    ("averageif", '=AVERAGEIF(D1:D11,"apple*",C1:C11)'),
    ("averageif", '=AVERAGEIF(Data!B2:B12;"F*";Data!D2:D12)'),
    ("averageif-error", '=AVERAGEIF(Data!B2:B12,"Nothing",Data!D2:D12)'),
    # nested functions
    ("nested", '=ROUND(SUMIF(Data!B2:B12,"Food",Data!D2:D12)/COUNTIF(Data!B2:B12,"Food"),2)'),
    ("nested", '=SUM(Data!D2:D12)-SUMIF(Data!B2:B12,"Food",Data!D2:D12)'),
    ("nested", '=ABS(SUMIFS(Data!D2:D12,Data!B2:B12,"Travel")-100)'),
    ("nested", '=MAX(SUMIF(Data!B2:B12,"Food",Data!D2:D12),SUMIF(Data!B2:B12,"Travel",Data!D2:D12))'),
    ("nested", '=IF(SUMIF(Data!B2:B12,"Food",Data!D2:D12)>50,"over","under")'),
    ("nested", '=ROUND(AVERAGE(C1:C6),1)&" avg"'),
    ("nested", "=SUM(C1:C3)*PRODUCT(C1:C3)"),
    ("nested", "=MIN(MAX(C1:C3),C4)"),
    ("nested", "=COUNT(C1:C11)+COUNTA(D1:D11)"),
    ("nested", "=ROUND(SUMPRODUCT(Data!E2:E12,Data!F2:F12),2)"),
    ("nested", "=ROUND(SUM(Data!G:G)/SUM(Data!E:E),3)"),
    ("nested", "=SUM(C1:C3)/COUNT(C1:C3)"),
    ("nested", "=IF(ABS(C5)>1,ROUND(C8*C5,1),0)"),
    ("nested", "=SUM('Sales Data'!B8:E8)-SUM('Sales Data'!B2:E7)"),
    # semicolon separators, as typed in Calc
    ("semicolon", "=SUM(C1;C2;C3)"),
    ("semicolon", "=ROUND(C8;2)"),
    ("semicolon", "=MAX(C1:C3;C10)"),
    ("semicolon", '=IF(C1=1;"one";"other")'),
    ("semicolon", "=SUMPRODUCT(C1:C3;C4:C6)"),
    ("semicolon", '=AVERAGEIF(C1:C11;">0")'),
    ("semicolon", "=PRODUCT(C1;C2;ABS(C5))"),
    ("semicolon", '=COUNTIF(D1:D11;"a*")+COUNTA(D1:D3;"x")'),
]

# Formulas LibreOffice computes but the evaluator must refuse (ValueError): functions it does not
# know (a reward then fails that check rather than guess), array arithmetic, and a range used as a
# single value (implicit intersection). FOO is unknown to LibreOffice too (#NAME?).
REFUSED = [
    ("unknown-function", '=VLOOKUP("Food",Data!B2:D12,3,FALSE)'),
    ("unknown-function", '=TEXT(C1,"000")'),
    ("unknown-function", "=MEDIAN(C1:C5)"),
    ("unknown-function", "=SUMSQ(C1:C3)"),
    ("unknown-function", "=AND(C1>0,C2>0)"),
    ("unknown-function", "=INDEX(C1:C5,2)"),
    ("unknown-function", "=IFERROR(1/0,0)"),
    ("unknown-function", "=ROUNDUP(C8,1)"),
    ("unknown-function", "=SUM(C1:C3)+MEDIAN(C1:C3)"),
    ("unknown-function", "=FOO(1)"),
    ("array", '=SUMPRODUCT((D1:D5="apple")*C1:C5)'),
    ("range-as-value", "=C1:C3+1"),
    ("unknown-function", "=COUNT(Errors!C1:C2)"),  # C2 holds =IFERROR(1/0,0): refused, not skipped
]


def _commas(formula: str) -> str:
    """The formula with argument separators as .xlsx holds them (semicolons inside strings stay)."""
    return re.sub(r'("(?:[^"]|"")*")|;', lambda m: m.group(1) or ",", formula)


ALL = [(kind, formula, False) for kind, formula in CASES] + [(kind, f, True) for kind, f in REFUSED]
ROW = {formula: row for row, (_kind, formula, _refused) in enumerate(ALL, start=1)}
assert len(ROW) == len(ALL), "duplicate formulas in the table"


def _build(path: Path) -> None:
    wb = openpyxl.Workbook()
    calc = wb.active
    calc.title = SHEET
    for row, (_kind, formula, _refused) in enumerate(ALL, start=1):
        calc.cell(row=row, column=1).value = _commas(formula)
    for letter, values in LOCAL.items():
        for row, value in enumerate(values, start=1):
            if value is not None:
                calc[f"{letter}{row}"] = value
    calc[SENTINEL[0]] = "=" + SENTINEL[1]

    data = wb.create_sheet("Data")
    data.append(["Date", "Category", "Description", "Amount", "Qty", "Price", "Line"])
    for row, (date, category, description, amount, qty, price) in enumerate(DATA_ROWS, start=2):
        data.append(
            [datetime.date.fromisoformat(date), category, description, amount, qty, price, f"=E{row}*F{row}"]
        )
        data.cell(row=row, column=1).number_format = "yyyy-mm-dd"

    sales = wb.create_sheet("Sales Data")
    sales.append(["Month", "North", "South", "East", "West"])
    for month in SALES:
        sales.append(list(month))
    sales.append(["Total", *[f"=SUM({c}2:{c}{len(SALES) + 1})" for c in "BCDE"]])

    obrien = wb.create_sheet("O'Brien")
    for row, (number, text) in enumerate([(10, "x"), (20, "y"), (30, "x")], start=1):
        obrien.cell(row=row, column=1).value = number
        obrien.cell(row=row, column=2).value = text

    errors = wb.create_sheet("Errors")
    for row, (value, text) in enumerate([("=1/0", "x"), (5, "y"), ('="x"+1', "x"), (7, "x")], start=1):
        errors.cell(row=row, column=1).value = value
        errors.cell(row=row, column=2).value = text
    errors["C1"], errors["C2"] = 1, "=IFERROR(1/0,0)"  # a function the evaluator does not know
    wb.save(path)


def _stale_copy(source: Path, target: Path) -> None:
    """`source` with the sentinel's cached value set to -1: LibreOffice keeps it unless it recalculates."""
    cell, formula, _value = SENTINEL
    written = f'<c r="{cell}"><f>{formula}</f><v></v></c>'.encode()
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for item in src.infolist():
            content = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                assert content.count(written) == 1, "openpyxl no longer writes the sentinel as expected"
                content = content.replace(written, f'<c r="{cell}"><f>{formula}</f><v>-1</v></c>'.encode())
            out.writestr(item, content)


PROFILE_XCU = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" \
xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse">\
<value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse">\
<value>false</value></prop></item>
</oor:items>
"""


def _recalculate(base: Path) -> dict:
    """Build the workbook in `base`, have LibreOffice recalculate it once, and read both back."""
    soffice = shutil.which("soffice")
    assert soffice, "LibreOffice (soffice) is not installed: run `make system`"
    original, stale, outdir = base / "original.xlsx", base / "in" / "book.xlsx", base / "out"
    stale.parent.mkdir()
    _build(original)
    _stale_copy(original, stale)
    profile = base / "profile"
    (profile / "user").mkdir(parents=True)
    (profile / "user" / "registrymodifications.xcu").write_text(PROFILE_XCU, encoding="utf-8")
    cmd = [
        soffice,
        f"-env:UserInstallation={profile.as_uri()}",
        "--headless",
        "--norestore",
        "--nologo",
        "--convert-to",
        "xlsx:Calc MS Excel 2007 XML",
        "--outdir",
        str(outdir),
        str(stale),
    ]
    env = {**os.environ, "HOME": str(base)}
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env, check=False)
    saved = outdir / "book.xlsx"
    assert saved.exists(), f"LibreOffice did not convert the workbook:\n{run.stdout}\n{run.stderr}"
    saved_book = open_book(saved)
    values, formulas = saved_book["v"][SHEET], saved_book["f"][SHEET]
    return {
        "book": open_book(original),
        "saved_book": saved_book,
        "values": {row: values.cell(row=row, column=1).value for row in ROW.values()},
        "rewritten": {row: formulas.cell(row=row, column=1).value for row in ROW.values()},
        "sentinel": values[SENTINEL[0]].value,
    }


@pytest.fixture(scope="module")
def recalculated(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The openpyxl-written workbook and what one headless LibreOffice run made of it."""
    return _recalculate(tmp_path_factory.mktemp("formula_evaluator"))


def test_libreoffice_recalculated(recalculated):
    """LibreOffice recomputed the file rather than trusting (or lacking) cached values."""
    assert recalculated["sentinel"] == SENTINEL[2], "LibreOffice kept a stale cached value: no recalculation"
    assert recalculated["values"][ROW["=1+2*3"]] == 7
    assert recalculated["book"]["v"][SHEET]["A1"].value is None, "the original should carry no cached values"
    missing = [f for f, row in ROW.items() if recalculated["values"][row] is None]
    assert not missing, f"LibreOffice left these formulas without a value: {missing}"


def _outcome(evaluate):
    try:
        return ("value", evaluate())
    except ValueError as exc:
        return ("error", str(exc))


def _agrees(expected, outcome) -> bool:
    kind, got = outcome
    if isinstance(expected, str) and (expected in ERROR_CODES or expected.startswith("Err:")):
        return kind == "error" and got.startswith(expected)
    if kind != "value":
        return False
    if isinstance(expected, datetime.date | datetime.datetime):
        expected = to_excel(expected)
    if isinstance(got, datetime.date | datetime.datetime):
        got = to_excel(got)
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(got) is bool and type(expected) is bool and got == expected
    if isinstance(expected, int | float):
        return isinstance(got, int | float) and math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-9)
    return isinstance(got, str) and got == expected


@pytest.mark.parametrize("formula", [f for _k, f in CASES], ids=[f"{k}: {f}" for k, f in CASES])
def test_agrees_with_libreoffice(recalculated, formula):
    row = ROW[formula]
    expected = recalculated["values"][row]
    book = recalculated["book"]
    rewritten = recalculated["rewritten"][row]
    attempts = {
        "as typed": lambda: evaluate_formula(book, SHEET, formula),
        "without '='": lambda: evaluate_formula(book, SHEET, formula[1:]),
        "as written to .xlsx (computed_value)": lambda: computed_value(book, SHEET, row, 1),
        f"as LibreOffice rewrote it ({rewritten})": lambda: evaluate_formula(book, SHEET, rewritten),
        "over LibreOffice's saved file (cached values in the cells it reads)": lambda: evaluate_formula(
            recalculated["saved_book"], SHEET, formula
        ),
    }
    wrong = {how: got for how, attempt in attempts.items() if not _agrees(expected, got := _outcome(attempt))}
    assert not wrong, f"LibreOffice gives {expected!r} for {formula}; the evaluator gives {wrong}"


@pytest.mark.parametrize("formula", [f for _k, f in REFUSED], ids=[f"{k}: {f}" for k, f in REFUSED])
def test_refuses(recalculated, formula):
    expected = recalculated["values"][ROW[formula]]
    if formula.startswith("=FOO("):
        assert expected == "#NAME?"
    elif ALL[ROW[formula] - 1][0] == "unknown-function":  # a function LibreOffice knows
        assert expected not in ERROR_CODES, f"LibreOffice gives {expected!r}"
    with pytest.raises(ValueError) as refused:
        evaluate_formula(recalculated["book"], SHEET, formula)
    assert not str(refused.value).startswith("#"), "a refusal must not read as a Calc error value"
